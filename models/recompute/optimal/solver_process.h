// A solve in a forked child process, so that a crash inside the solver library cannot
// take memsim down: COIN-OR CBC 2.10 (Debian 12) dies with SIGSEGV in
// CglPreProcess::postProcess when its time limit stops it during preprocessing
// (docs/optimal.md, "When the solver fails"). The child sends its MilpOutcome back
// through a pipe; a child that dies, or ends without one, gives a Failed outcome whose
// `failure` says how it ended. The child dies with this process (PR_SET_PDEATHSIG).
// With a CPU deadline (seconds > 0) the child is ended by SIGXCPU once it has used that
// much CPU: a hard stop for a solver that checks its own time limit only now and then
// (CBC, inside its preprocessing: docs/optimal.md); the outcome then has hit_deadline.
#pragma once

#include <functional>

#include "models/recompute/optimal/cbc_solver.h"

namespace memsim::optimal {

MilpOutcome solve_in_child(const std::function<MilpOutcome()>& solve, double cpu_deadline_s = 0);

}  // namespace memsim::optimal
