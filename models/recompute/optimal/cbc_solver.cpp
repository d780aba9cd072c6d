#include "models/recompute/optimal/cbc_solver.h"

#include <cfloat>
#include <cmath>
#include <memory>

#include <fmt/format.h>

#include "models/recompute/optimal/coin_library.h"
#include "models/recompute/optimal/cpu_time.h"
#include "models/recompute/optimal/solver_process.h"

namespace memsim::optimal {

namespace {

double finite(double x) { return std::isinf(x) ? (x > 0 ? DBL_MAX : -DBL_MAX) : x; }

struct ModelDeleter {
    void operator()(Cbc_Model* m) const { coin_api().cbc_delete_model(m); }
};

struct SimplexDeleter {
    void operator()(Clp_Simplex* m) const { coin_api().clp_delete_model(m); }
};

// The linear relaxation with CLP directly: CBC's own first LP solve has no time limit.
MilpOutcome solve_relaxation(const Milp& milp, const MilpSolveOptions& options, const std::vector<CoinBigIndex>& start,
                             const std::vector<int>& index, const std::vector<double>& value,
                             const std::vector<double>& col_lower, const std::vector<double>& col_upper,
                             const std::vector<double>& row_lower, const std::vector<double>& row_upper) {
    const CoinApi& api = coin_api();
    std::unique_ptr<Clp_Simplex, SimplexDeleter> model(api.clp_new_model());
    Clp_Simplex* m = model.get();
    api.clp_set_log_level(m, 0);
    api.clp_load_problem(m, milp.columns(), milp.row_count(), start.data(), index.data(), value.data(), col_lower.data(),
                         col_upper.data(), milp.cost.data(), row_lower.data(), row_upper.data());
    api.clp_set_obj_sense(m, 1.0);
    api.clp_set_maximum_seconds(m, options.time_limit_s);
    const double began = cpu_seconds();
    api.clp_initial_solve(m);
    MilpOutcome out;
    out.seconds = cpu_seconds() - began;
    switch (api.clp_status(m)) {
        case 0: {
            out.status = MilpStatus::Optimal;
            const double* x = api.clp_get_col_solution(m);
            out.solution.assign(x, x + milp.columns());
            out.objective = out.bound = api.clp_objective_value(m);
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
    const CoinApi& api = coin_api();
    std::unique_ptr<Cbc_Model, ModelDeleter> model(api.cbc_new_model());
    Cbc_Model* m = model.get();
    api.cbc_load_problem(m, ncols, nrows, start.data(), index.data(), value.data(), col_lower.data(), col_upper.data(),
                         milp.cost.data(), row_lower.data(), row_upper.data());
    api.cbc_set_obj_sense(m, 1.0);
    for (int c = 0; c < ncols; ++c)
        if (milp.integer[static_cast<std::size_t>(c)]) api.cbc_set_integer(m, c);
    api.cbc_set_log_level(m, 0);
    api.cbc_set_maximum_seconds(m, options.time_limit_s);
    // One thread, and what is proven is what is reported: stop only at a zero gap.
    api.cbc_set_allowable_gap(m, 1e-9);
    api.cbc_set_allowable_fraction_gap(m, 0.0);
    std::vector<int> start_cols;
    std::vector<double> start_values;
    if (options.start.size() == static_cast<std::size_t>(ncols)) {
        for (int c = 0; c < ncols; ++c)
            if (milp.integer[static_cast<std::size_t>(c)]) {
                start_cols.push_back(c);
                start_values.push_back(options.start[static_cast<std::size_t>(c)]);
            }
        api.cbc_set_mip_start_i(m, static_cast<int>(start_cols.size()), start_cols.data(), start_values.data());
    }

    const double began = cpu_seconds();
    api.cbc_solve(m);
    MilpOutcome out;
    out.seconds = cpu_seconds() - began;
    // CBC 2.10 stopped by its time limit inside preprocessing says the program was
    // solved, without the limit's flag: proven infeasible (status 0, secondary status 1,
    // after 1.11-1.25 s CPU of a 1 s limit, no solution), or proven optimal with the
    // start's plan as its bound (2.74 s CPU of a 2 s limit, where a flagged stop of the
    // same program gives a bound 16% lower). Past the limit nothing counts as a proof,
    // and after such an unflagged stop CBC's bound is void too: 0, the trivial one.
    const bool flagged_stop = api.cbc_is_seconds_limit_reached(m) != 0;
    out.hit_time_limit = flagged_stop || out.seconds >= options.time_limit_s;
    const bool unflagged_stop = out.hit_time_limit && !flagged_stop;
    out.nodes = api.cbc_get_node_count(m);
    const double* best = api.cbc_best_solution(m);
    const bool optimal = api.cbc_is_proven_optimal(m) != 0 && !out.hit_time_limit;
    if (api.cbc_is_proven_infeasible(m) != 0 && !best && !out.hit_time_limit) {
        out.status = MilpStatus::Infeasible;
        return out;
    }
    out.bound = unflagged_stop ? 0.0 : api.cbc_get_best_possible_obj_value(m);
    if (!best) {
        out.status = out.hit_time_limit ? MilpStatus::NoSolution : MilpStatus::Failed;
        return out;
    }
    out.solution.assign(best, best + ncols);
    out.objective = api.cbc_get_obj_value(m);
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
    coin_api();  // loaded here, once: every forked solve inherits it, and a missing library is this process's error
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
