#include "models/recompute/recompute_planner.h"

#include <array>
#include <stdexcept>

#include "models/recompute/capuchin.h"
#include "models/recompute/msps_on_demand.h"
#include "models/recompute/optimal/optimal_row.h"
#include "models/recompute/sublinear.h"

namespace memsim {

namespace {

template <ExecPlan (*Plan)(const Workload&, std::uint64_t, double)>
PlannerOutput plain(const Workload& w, const PlannerInputs& in) {
    return {Plan(w, in.budget_bytes, in.recompute_limit_ms), {}};
}

const std::array<RecomputePlannerRow, 4> kPlanners{{
    {"msps_on_demand", "in order; over the budget, releases the tensor saving most bytes per ms of recomputation", plain<plan_msps_on_demand>},
    {"capuchin", "feature maps chosen by memory saved per second, regenerated in the backward pass", plain<plan_capuchin>},
    {"sublinear", "sqrt(n) checkpoints at the forward graph's cut vertices (the budget does not change it)", plain<plan_sublinear>},
    {kOptimalPlanner, "the least recomputation time within the budget: chains by dynamic programming, other graphs by "
                "Checkmate's integer program (CBC, policy.recompute.time_limit)", plan_optimal},
}};

}  // namespace

std::span<const RecomputePlannerRow> recompute_planner_table() { return kPlanners; }

std::vector<std::string> recompute_planner_names() { return row_names(kPlanners); }

PlannerOutput plan_recompute(const std::string& planner, const Workload& w, const PlannerInputs& inputs) {
    if (const RecomputePlannerRow* row = find_row(kPlanners, planner)) return row->make(w, inputs);
    throw std::invalid_argument(unknown_name_message("recompute planner", planner, recompute_planner_names()));
}

ExecPlan plan_recompute(const std::string& planner, const Workload& w, std::uint64_t budget_bytes,
                        double recompute_limit_ms) {
    PlannerInputs inputs;
    inputs.budget_bytes = budget_bytes;
    inputs.recompute_limit_ms = recompute_limit_ms;
    return plan_recompute(planner, w, inputs).plan;
}

}  // namespace memsim
