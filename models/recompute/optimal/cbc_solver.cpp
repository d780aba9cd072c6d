#include "models/recompute/optimal/cbc_solver.h"

#include <Cbc_C_Interface.h>
#include <Clp_C_Interface.h>

#include <cfloat>
#include <cmath>
#include <memory>

#include <fmt/format.h>

#include "models/recompute/optimal/cpu_time.h"
#include "models/recompute/optimal/solver_process.h"

namespace memsim::optimal {

namespace {

double finite(double x) { return std::isinf(x) ? (x > 0 ? DBL_MAX : -DBL_MAX) : x; }

struct ModelDeleter {
    void operator()(Cbc_Model* m) const { Cbc_deleteModel(m); }
};

struct SimplexDeleter {
    void operator()(Clp_Simplex* m) const { Clp_deleteModel(m); }
};

// The linear relaxation with CLP directly: CBC's own first LP solve has no time limit.
MilpOutcome solve_relaxation(const Milp& milp, const MilpSolveOptions& options, const std::vector<CoinBigIndex>& start,
                             const std::vector<int>& index, const std::vector<double>& value,
                             const std::vector<double>& col_lower, const std::vector<double>& col_upper,
                             const std::vector<double>& row_lower, const std::vector<double>& row_upper) {
    std::unique_ptr<Clp_Simplex, SimplexDeleter> model(Clp_newModel());
    Clp_Simplex* m = model.get();
    Clp_setLogLevel(m, 0);
    Clp_loadProblem(m, milp.columns(), milp.row_count(), start.data(), index.data(), value.data(), col_lower.data(),
                    col_upper.data(), milp.cost.data(), row_lower.data(), row_upper.data());
    Clp_setObjSense(m, 1.0);
    Clp_setMaximumSeconds(m, options.time_limit_s);
    const double began = cpu_seconds();
    Clp_initialSolve(m);
    MilpOutcome out;
    out.seconds = cpu_seconds() - began;
    switch (Clp_status(m)) {
        case 0: {
            out.status = MilpStatus::Optimal;
            const double* x = Clp_getColSolution(m);
            out.solution.assign(x, x + milp.columns());
            out.objective = out.bound = Clp_objectiveValue(m);
            break;
        }
        case 1: out.status = MilpStatus::Infeasible; break;
        case 3:
            out.status = MilpStatus::NoSolution;
            out.hit_time_limit = true;
            break;
        default: out.status = MilpStatus::Failed;
    }
    return out;
}

MilpOutcome solve_with_cbc(const Milp& milp, const MilpSolveOptions& options, const std::vector<CoinBigIndex>& start,
                           const std::vector<int>& index, const std::vector<double>& value,
                           const std::vector<double>& col_lower, const std::vector<double>& col_upper,
                           const std::vector<double>& row_lower, const std::vector<double>& row_upper) {
    const int ncols = milp.columns();
    const int nrows = milp.row_count();
    std::unique_ptr<Cbc_Model, ModelDeleter> model(Cbc_newModel());
    Cbc_Model* m = model.get();
    Cbc_loadProblem(m, ncols, nrows, start.data(), index.data(), value.data(), col_lower.data(), col_upper.data(),
                    milp.cost.data(), row_lower.data(), row_upper.data());
    Cbc_setObjSense(m, 1.0);
    for (int c = 0; c < ncols; ++c)
        if (milp.integer[static_cast<std::size_t>(c)]) Cbc_setInteger(m, c);
    Cbc_setLogLevel(m, 0);
    Cbc_setMaximumSeconds(m, options.time_limit_s);
    // One thread, and what is proven is what is reported: stop only at a zero gap.
    Cbc_setAllowableGap(m, 1e-9);
    Cbc_setAllowableFractionGap(m, 0.0);
    std::vector<int> start_cols;
    std::vector<double> start_values;
    if (options.start.size() == static_cast<std::size_t>(ncols)) {
        for (int c = 0; c < ncols; ++c)
            if (milp.integer[static_cast<std::size_t>(c)]) {
                start_cols.push_back(c);
                start_values.push_back(options.start[static_cast<std::size_t>(c)]);
            }
        Cbc_setMIPStartI(m, static_cast<int>(start_cols.size()), start_cols.data(), start_values.data());
    }

    const double began = cpu_seconds();
    Cbc_solve(m);
    MilpOutcome out;
    out.seconds = cpu_seconds() - began;
    // CBC 2.10 stopped by its time limit inside preprocessing says the program was
    // solved, without the limit's flag: proven infeasible (status 0, secondary status 1,
    // after 1.11-1.25 s CPU of a 1 s limit, no solution), or proven optimal with the
    // start's plan as its bound (2.74 s CPU of a 2 s limit, where a flagged stop of the
    // same program gives a bound 16% lower). Past the limit nothing counts as a proof,
    // and after such an unflagged stop CBC's bound is void too: 0, the trivial one.
    const bool flagged_stop = Cbc_isSecondsLimitReached(m) != 0;
    out.hit_time_limit = flagged_stop || out.seconds >= options.time_limit_s;
    const bool unflagged_stop = out.hit_time_limit && !flagged_stop;
    out.nodes = Cbc_getNodeCount(m);
    const double* best = Cbc_bestSolution(m);
    const bool optimal = Cbc_isProvenOptimal(m) != 0 && !out.hit_time_limit;
    if (Cbc_isProvenInfeasible(m) != 0 && !best && !out.hit_time_limit) {
        out.status = MilpStatus::Infeasible;
        return out;
    }
    out.bound = unflagged_stop ? 0.0 : Cbc_getBestPossibleObjValue(m);
    if (!best) {
        out.status = out.hit_time_limit ? MilpStatus::NoSolution : MilpStatus::Failed;
        return out;
    }
    out.solution.assign(best, best + ncols);
    out.objective = Cbc_getObjValue(m);
    out.status = optimal ? MilpStatus::Optimal : MilpStatus::Feasible;
    if (optimal) out.bound = out.objective;
    return out;
}

}  // namespace

std::string to_string(MilpStatus s) {
    switch (s) {
        case MilpStatus::Optimal: return "optimal";
        case MilpStatus::Feasible: return "feasible";
        case MilpStatus::Infeasible: return "infeasible";
        case MilpStatus::NoSolution: return "no solution";
        case MilpStatus::Failed: return "failed";
    }
    return "failed";
}

double hard_stop_s(double limit_s) { return 1.25 * limit_s + 0.25; }

MilpOutcome solve_milp(const Milp& milp, const MilpSolveOptions& options) {
    const int ncols = milp.columns();
    const int nrows = milp.row_count();
    // Column-major (compressed sparse columns), as Cbc_loadProblem takes it.
    std::vector<CoinBigIndex> start(static_cast<std::size_t>(ncols) + 1, 0);
    for (const auto& row : milp.rows)
        for (const auto& [col, coef] : row) ++start[static_cast<std::size_t>(col) + 1];
    for (int c = 0; c < ncols; ++c) start[static_cast<std::size_t>(c) + 1] += start[static_cast<std::size_t>(c)];
    std::vector<int> index(static_cast<std::size_t>(start.back()));
    std::vector<double> value(static_cast<std::size_t>(start.back()));
    std::vector<CoinBigIndex> fill(start.begin(), start.end() - 1);
    for (int r = 0; r < nrows; ++r)
        for (const auto& [col, coef] : milp.rows[static_cast<std::size_t>(r)]) {
            const auto at = static_cast<std::size_t>(fill[static_cast<std::size_t>(col)]++);
            index[at] = r;
            value[at] = coef;
        }
    std::vector<double> col_lower(milp.col_lower), col_upper(milp.col_upper), row_lower(milp.row_lower), row_upper(milp.row_upper);
    for (auto* v : {&col_lower, &col_upper, &row_lower, &row_upper})
        for (double& x : *v) x = finite(x);
    const double stop_s = hard_stop_s(options.time_limit_s);
    MilpOutcome out = solve_in_child(
        [&] {
            return options.relax
                       ? solve_relaxation(milp, options, start, index, value, col_lower, col_upper, row_lower, row_upper)
                       : solve_with_cbc(milp, options, start, index, value, col_lower, col_upper, row_lower, row_upper);
        },
        stop_s);
    if (out.hit_deadline) {
        out.hit_time_limit = true;
        out.failure = fmt::format(
            "{} was ended at its hard stop, {:g} s of CPU (it checks its limit only between the "
            "steps of its search)",
            options.relax ? "CLP" : "CBC", stop_s);
    }
    return out;
}

}  // namespace memsim::optimal
