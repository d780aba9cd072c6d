#include "models/recompute/recompute_planner.h"

#include <array>
#include <stdexcept>

#include "models/recompute/capuchin.h"
#include "models/recompute/msps_on_demand.h"
#include "models/recompute/sublinear.h"

namespace memsim {

namespace {

// A planner that takes no parameter.
template <ExecPlan (*plan)(const Workload&, std::uint64_t, double)>
ExecPlan without_params(const Workload& w, std::uint64_t budget_bytes, double recompute_limit_ms, const PolicyParams&) {
    return plan(w, budget_bytes, recompute_limit_ms);
}

}  // namespace

std::span<const RecomputePlannerRow> recompute_planner_table() {
    static const auto planners = std::to_array<RecomputePlannerRow>({
        {"msps_on_demand", "in order; over the budget, releases the tensor saving most bytes per ms of recomputation",
         without_params<plan_msps_on_demand>},
        {"capuchin", "feature maps chosen by memory saved per second, regenerated in the backward pass", without_params<plan_capuchin>},
        {"sublinear", "sqrt(n) checkpoints at the forward graph's cut vertices (the budget does not change it)",
         without_params<plan_sublinear>},
    });
    return planners;
}

std::vector<std::string> recompute_planner_names() { return row_names(recompute_planner_table()); }

ExecPlan plan_recompute(const std::string& planner, const Workload& w, std::uint64_t budget_bytes,
                        double recompute_limit_ms, const ParamValues& given) {
    if (const RecomputePlannerRow* row = find_row(recompute_planner_table(), planner))
        return row->make(w, budget_bytes, recompute_limit_ms, PolicyParams(row->params, given));
    throw std::invalid_argument(unknown_name_message("recompute planner", planner, recompute_planner_names()));
}

}  // namespace memsim
