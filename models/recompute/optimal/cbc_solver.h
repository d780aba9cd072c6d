// COIN-OR CBC (Debian's coinor-libcbc-dev) through its C interface, Cbc_C_Interface.h:
// load a Milp, give it a feasible start and a time limit, and read back the status, the
// best solution, and the proven lower bound. The linear relaxation goes to CLP, CBC's LP
// solver, through Clp_C_Interface.h (CBC does not time-limit its first LP solve).
#pragma once

#include <string>
#include <vector>

#include "models/recompute/optimal/milp.h"

namespace memsim::optimal {

struct MilpSolveOptions {
    double time_limit_s = 60.0;
    // A feasible point (every column), or empty: CBC starts from its integer columns.
    std::vector<double> start;
    bool relax = false;  // solve the linear relaxation (every column continuous), with CLP
};

enum class MilpStatus {
    Optimal,     // proven optimal (for relax: the LP optimum)
    Feasible,    // a solution, not proven optimal within the limit
    Infeasible,  // proven infeasible
    NoSolution,  // the limit came first, no solution known
    Failed,      // numerical trouble, or the solver gave up
};

struct MilpOutcome {
    MilpStatus status = MilpStatus::Failed;
    double objective = 0.0;       // of `solution`
    double bound = 0.0;           // proven lower bound on the optimum (minimisation)
    std::vector<double> solution;  // every column; empty without a solution
    bool hit_time_limit = false;
    double seconds = 0.0;         // CPU time of the solve (CBC's own time limit counts CPU time too)
    long nodes = 0;
    std::string failure;          // for Failed: why, when the solver did not say it (a crash, no process)
    int killed_by = 0;            // the signal that killed the solver's process, if one did
    bool hit_deadline = false;    // the process was ended at its CPU deadline (hard_stop_s)
};

// The CPU time at which a solve with time limit `limit_s` is ended whatever the solver is
// doing: the limit plus a grace for the solver to notice it (a quarter of the limit and
// 0.25 s). CBC 2.10 checks its limit only between the steps of its search, not inside its
// preprocessing or first LP solve, and without this ran 3.3-3.5 s at a 20 ms limit.
double hard_stop_s(double limit_s);

// Solves in a child process (solver_process.h): a crash in CBC or CLP is a Failed outcome.
MilpOutcome solve_milp(const Milp& milp, const MilpSolveOptions& options);

std::string to_string(MilpStatus s);

}  // namespace memsim::optimal
