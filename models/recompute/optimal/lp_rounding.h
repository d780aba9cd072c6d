// A plan from the linear relaxation of the program (Checkmate's two-phase rounding):
// the values the relaxation keeps at a threshold are kept, and each stage recomputes
// exactly what its reads then lack. Several thresholds are tried; the fastest plan that
// fits the budget wins.
#pragma once

#include <functional>
#include <optional>
#include <vector>

#include "models/recompute/optimal/remat_milp.h"

namespace memsim::optimal {

// Keeps the values `keep(k, v)` says (those already resident), recomputes what stage k
// reads and lacks (and, in the last stage, the results the iteration must end with).
// keep(k, v): whether value v, resident at the end of stage k - 1, stays into stage k.
Schedule schedule_keeping(const RematProblem& p, const std::function<bool(int, int)>& keep);

std::optional<Schedule> round_relaxation(const RematProblem& p, const RematMilp& m, const std::vector<double>& lp_solution);

}  // namespace memsim::optimal
