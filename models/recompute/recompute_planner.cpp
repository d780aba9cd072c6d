#include "models/recompute/recompute_planner.h"

#include <array>
#include <stdexcept>

#include "models/recompute/capuchin.h"
#include "models/recompute/msps_on_demand.h"
#include "models/recompute/optimal/optimal_row.h"
#include "models/recompute/sublinear.h"

namespace memsim {

namespace {

// A planner that takes no parameter and reports nothing besides its plan.
template <ExecPlan (*plan)(const Workload&, std::uint64_t, double)>
PlannerOutput without_params(const Workload& w, const PlannerInputs& in, const PolicyParams&) {
    return {plan(w, in.budget_bytes, in.recompute_limit_ms), {}};
}

}  // namespace

std::span<const RecomputePlannerRow> recompute_planner_table() {
    static const auto planners = std::to_array<RecomputePlannerRow>({
        {"msps_on_demand", "in order; over the budget, releases the tensor saving most bytes per ms of recomputation",
         without_params<plan_msps_on_demand>},
        {"capuchin", "feature maps chosen by memory saved per second, regenerated in the backward pass", without_params<plan_capuchin>},
        {"sublinear", "sqrt(n) checkpoints at the forward graph's cut vertices (the budget does not change it)",
         without_params<plan_sublinear>},
        {kOptimalPlanner, "the least recomputation time within the budget: chains by dynamic programming, other graphs by "
                          "Checkmate's integer program (CBC)",
         plan_optimal, optimal_planner_params()},
    });
    return planners;
}

std::vector<std::string> recompute_planner_names() { return row_names(recompute_planner_table()); }

PlannerOutput plan_recompute(const std::string& planner, const Workload& w, const PlannerInputs& inputs,
                             const ParamValues& given) {
    // Planners see storage reads: a tensor read later only through a view is still read
    // (workload.h, with_storage_reads).
    if (const RecomputePlannerRow* row = find_row(recompute_planner_table(), planner))
        return row->make(has_views(w) ? with_storage_reads(w) : w, inputs, PolicyParams(row->params, given));
    throw std::invalid_argument(unknown_name_message("recompute planner", planner, recompute_planner_names()));
}

ExecPlan plan_recompute(const std::string& planner, const Workload& w, std::uint64_t budget_bytes,
                        double recompute_limit_ms, const ParamValues& given) {
    PlannerInputs inputs;
    inputs.budget_bytes = budget_bytes;
    inputs.recompute_limit_ms = recompute_limit_ms;
    return plan_recompute(planner, w, inputs, given).plan;
}

}  // namespace memsim
