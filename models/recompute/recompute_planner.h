// `policy.recompute.planner`: the static recomputation planners by name.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "models/policy_table.h"
#include "models/recompute/plan_builder.h"  // PlanStopped
#include "models/workload/exec_plan.h"

namespace memsim {

// The table of `policy.recompute.planner`: name, one-line summary, the planner
// (workload, budget, recompute limit in ms (0 for none), its parameters) -> plan, and
// the parameters it takes.
using RecomputePlannerRow = PolicyRow<ExecPlan (*)(const Workload&, std::uint64_t, double, const PolicyParams&)>;
std::span<const RecomputePlannerRow> recompute_planner_table();

std::vector<std::string> recompute_planner_names();  // msps_on_demand, capuchin, sublinear
// Throws std::invalid_argument naming the unknown planner (with the valid ones and the
// closest) or a parameter its row does not take, and PlanStopped ("thrash") when the
// plan's recomputation exceeds recompute_limit_ms (> 0). `given`: the planner's
// parameters (its row's defaults for the rest).
ExecPlan plan_recompute(const std::string& planner, const Workload& w, std::uint64_t budget_bytes,
                        double recompute_limit_ms = 0, const ParamValues& given = {});

}  // namespace memsim
