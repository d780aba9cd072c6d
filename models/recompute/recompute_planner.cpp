#include "models/recompute/recompute_planner.h"

#include <array>
#include <stdexcept>

#include "models/recompute/capuchin.h"
#include "models/recompute/msps_on_demand.h"
#include "models/recompute/sublinear.h"

namespace memsim {

namespace {

const std::array<RecomputePlannerRow, 3> kPlanners{{
    {"msps_on_demand", "in order; over the budget, releases the tensor saving most bytes per ms of recomputation", plan_msps_on_demand},
    {"capuchin", "feature maps chosen by memory saved per second, regenerated in the backward pass", plan_capuchin},
    {"sublinear", "sqrt(n) checkpoints at the forward graph's cut vertices (the budget does not change it)", plan_sublinear},
}};

}  // namespace

std::span<const RecomputePlannerRow> recompute_planner_table() { return kPlanners; }

std::vector<std::string> recompute_planner_names() { return row_names(kPlanners); }

ExecPlan plan_recompute(const std::string& planner, const Workload& w, std::uint64_t budget_bytes,
                        double recompute_limit_ms) {
    if (const RecomputePlannerRow* row = find_row(kPlanners, planner)) return row->make(w, budget_bytes, recompute_limit_ms);
    throw std::invalid_argument(unknown_name_message("recompute planner", planner, recompute_planner_names()));
}

}  // namespace memsim
