// `policy.recompute.planner`: the static recomputation planners by name.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "models/recompute/plan_builder.h"  // PlanStopped
#include "models/workload/exec_plan.h"

namespace memsim {

std::vector<std::string> recompute_planner_names();  // msps_on_demand, capuchin, sublinear
// Throws std::invalid_argument naming the unknown planner, and PlanStopped ("thrash")
// when the plan's recomputation exceeds recompute_limit_ms (> 0).
ExecPlan plan_recompute(const std::string& planner, const Workload& w, std::uint64_t budget_bytes,
                        double recompute_limit_ms = 0);

}  // namespace memsim
