// The `optimal` row of the recompute planner table (models/recompute/recompute_planner.cpp).
#pragma once

#include <vector>

#include "models/policy_params.h"
#include "models/recompute/recompute_planner.h"

namespace memsim {

// The row's name (compare measures every policy against it).
inline constexpr const char* kOptimalPlanner = "optimal";

// Its parameters: time_limit, how long CBC may run (CPU time; docs/optimal.md).
std::vector<ParamSpec> optimal_planner_params();

// solve_optimal with the time limit and the inputs' heuristic runs as extra candidates;
// the plan and the summary's details. Throws PlanStopped "infeasible" (with the reason)
// when no plan fits, "thrash" when the best plan recomputes beyond the limit.
PlannerOutput plan_optimal(const Workload& w, const PlannerInputs& inputs, const PolicyParams& params);

}  // namespace memsim
