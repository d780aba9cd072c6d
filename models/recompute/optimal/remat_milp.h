// Checkmate's mixed-integer program (Jain et al., MLSys 2020) written for memsim's plans
// (docs/optimal.md, "The program"): binary R[k][j] (op j recomputed in stage k) and
// S[k][v] (value v resident when stage k starts), continuous F[k][v][j] (v freed after
// op j's slot in stage k) and U[k][j] (live bytes after that slot), memory at every slot
// at most the budget, minimum total recomputation time.
#pragma once

#include <unordered_map>
#include <vector>

#include "models/recompute/optimal/milp.h"
#include "models/recompute/optimal/remat_problem.h"
#include "models/recompute/optimal/schedule.h"

namespace memsim::optimal {

// RematMilp::s for an S that is not a column: fixed at 0 or at 1.
inline constexpr int kFixedZero = -1;
inline constexpr int kFixedOne = -2;

struct RematMilp {
    Milp milp;
    // Column of R[k][j] (stage k, op j < k): r_col[k][j], -1 where the op cannot be recomputed.
    std::vector<std::vector<int>> r_col;
    // Column of S[k][v] for the stages after v's origin: s_col[v][k - first_stage[v]]; -1 where
    // it is fixed (0 after the release list of its Compute frees it, 1 for what stays).
    std::vector<std::vector<int>> s_col;
    std::vector<int> s_first_stage;
    [[nodiscard]] int s(int v, int k) const;  // the column, kFixedZero or kFixedOne
};

// Throws std::length_error when the program would have more than `max_columns` columns.
RematMilp build_remat_milp(const RematProblem& p, std::size_t max_columns);

// The columns of the program for a schedule the evaluator accepts (a MIP start): the R
// and S of the schedule, every continuous column left at 0 (CBC works them out).
std::vector<double> milp_start(const RematProblem& p, const RematMilp& m, const Schedule& s);

// The schedule of a solution: the ops whose R is set, per stage.
Schedule schedule_of(const RematProblem& p, const RematMilp& m, const std::vector<double>& solution);

// Columns and rows the program would have, without building it (for the size limits).
std::size_t estimated_columns(const RematProblem& p);

}  // namespace memsim::optimal
