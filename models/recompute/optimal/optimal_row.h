// The `optimal` row of the recompute planner table (models/recompute/recompute_planner.cpp).
#pragma once

#include "models/recompute/recompute_planner.h"

namespace memsim {

// The row's name (compare measures every policy against it).
inline constexpr const char* kOptimalPlanner = "optimal";

// solve_optimal with the inputs' time limit and heuristic runs as extra candidates; the
// plan and the summary's details. Throws PlanStopped "infeasible" (with the reason) when
// no plan fits, "thrash" when the best plan recomputes beyond the limit.
PlannerOutput plan_optimal(const Workload& w, const PlannerInputs& inputs);

}  // namespace memsim
