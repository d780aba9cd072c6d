// `policy.recompute.planner`: the static recomputation planners by name.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "models/workload/exec_plan.h"

namespace memsim {

std::vector<std::string> recompute_planner_names();  // msps_on_demand, capuchin, sublinear
// Throws std::invalid_argument naming the unknown planner.
ExecPlan plan_recompute(const std::string& planner, const Workload& w, std::uint64_t budget_bytes);

}  // namespace memsim
