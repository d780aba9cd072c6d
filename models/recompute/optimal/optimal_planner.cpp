#include "models/recompute/optimal/optimal_planner.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <stdexcept>

#include <fmt/format.h>

#include "models/recompute/optimal/cbc_solver.h"
#include "models/recompute/optimal/chain_dp.h"
#include "models/recompute/optimal/incumbents.h"
#include "models/recompute/optimal/lp_rounding.h"
#include "models/recompute/optimal/remat_milp.h"

namespace memsim::optimal {

namespace {

// Takes `s` as the answer if it is valid, fits and beats the current one.
bool take_if_better(const RematProblem& p, OptimalResult& r, const Schedule& s) {
    const ScheduleCheck c = check_schedule(p, s);
    if (!c.valid || c.peak_bytes > p.budget) return false;
    if (!r.plan.empty() && c.time_ms >= r.time_ms) return false;
    r.schedule = s;
    r.plan = to_exec_plan(p, s);
    r.time_ms = c.time_ms;
    r.peak_bytes = c.peak_bytes;
    return true;
}

void solve_with_milp(const RematProblem& p, const OptimalOptions& options, const Incumbent& best, OptimalResult& r) {
    RematMilp m = build_remat_milp(p, options.max_milp_columns);
    r.columns = static_cast<std::size_t>(m.milp.columns());
    r.rows = static_cast<std::size_t>(m.milp.row_count());
    MilpSolveOptions solve;
    solve.time_limit_s = options.time_limit_s;
    if (best.schedule) solve.start = milp_start(p, m, *best.schedule);
    const MilpOutcome out = options.solver(m.milp, solve);
    r.solve_seconds += out.seconds;
    r.method = "milp";
    if (out.status == MilpStatus::Infeasible) {
        if (r.plan.empty()) {
            r.status = OptimalStatus::Infeasible;
            r.reason = "infeasible: CBC proved that no plan of the program's class fits the budget";
        } else {
            r.reason = "CBC declared the program infeasible, yet a candidate fits it (numerical trouble): its plan is kept";
        }
        return;
    }
    if (!out.solution.empty()) {
        const Schedule s = schedule_of(p, m, out.solution);
        if (!take_if_better(p, r, s) && check_schedule(p, s).peak_bytes > p.budget)
            r.reason = "CBC's solution exceeds the budget when measured exactly (solver tolerance); the best candidate is kept";
    }
    // Without a solution, or without CBC's own bound (its process died), the relaxation
    // still bounds the optimum, and its rounding may give a plan. CBC ended at its hard
    // stop past the time limit (cbc_solver.h) is a time limit coming first, not a crash:
    // with a plan known, the time is spent and the bound is the compute time.
    const bool crashed = out.status == MilpStatus::Failed && !out.failure.empty() && !out.hit_deadline;
    std::optional<double> relaxation_bound;
    if ((out.solution.empty() && r.plan.empty()) || crashed) {
        MilpSolveOptions relax = solve;
        relax.relax = true;
        relax.start.clear();
        const MilpOutcome lp = options.solver(m.milp, relax);
        r.solve_seconds += lp.seconds;
        if (lp.status == MilpStatus::Optimal) {
            relaxation_bound = std::max(0.0, lp.objective);
            if (r.plan.empty())
                if (const auto rounded = round_relaxation(p, m, lp.solution)) take_if_better(p, r, *rounded);
        }
    }
    if (out.status == MilpStatus::Optimal) {
        r.bound_ms = r.compute_ms + out.objective;
    } else if (crashed || out.hit_deadline) {
        r.solver_killed_by = out.killed_by;
        r.bound_ms = r.compute_ms + relaxation_bound.value_or(0.0);
        const char* bound = relaxation_bound ? "the linear relaxation's" : "the compute time";
        if (crashed) r.reason = fmt::format("CBC stopped: {}; the best plan known is kept, the bound is {}", out.failure, bound);
        else if (r.reason.empty())
            r.reason = fmt::format("CBC's time limit of {:g} s (CPU) came first: {}; the bound is {}", options.time_limit_s,
                                   out.failure, bound);
    } else {
        r.bound_ms = r.compute_ms + std::max(0.0, out.bound);
        if (out.status == MilpStatus::Failed) r.reason = "CBC gave up (numerical difficulties); the bound is CBC's last";
        else if (r.reason.empty())
            r.reason = fmt::format("CBC's time limit of {:g} s (CPU) came first", options.time_limit_s);
    }
}

void solve_with_relaxation(const RematProblem& p, const OptimalOptions& options, OptimalResult& r) {
    RematMilp m = build_remat_milp(p, options.max_lp_columns);
    r.columns = static_cast<std::size_t>(m.milp.columns());
    r.rows = static_cast<std::size_t>(m.milp.row_count());
    MilpSolveOptions solve;
    solve.time_limit_s = options.time_limit_s;
    solve.relax = true;
    const MilpOutcome out = options.solver(m.milp, solve);
    r.solve_seconds += out.seconds;
    r.method = "lp relaxation + rounding";
    if (out.status == MilpStatus::Infeasible) {
        if (r.plan.empty()) {
            r.status = OptimalStatus::Infeasible;
            r.reason = "infeasible: even the linear relaxation of the program has no solution within the budget";
        }
        return;
    }
    if (out.status != MilpStatus::Optimal) {
        r.reason = fmt::format("the linear relaxation ({} columns) did not solve within {:g} s: the bound is the compute time",
                               r.columns, options.time_limit_s);
        return;
    }
    r.bound_ms = r.compute_ms + std::max(0.0, out.objective);
    r.reason = fmt::format("the program ({} columns) is above the exact solve's limit of {}: the bound is its linear "
                           "relaxation's",
                           r.columns, options.max_milp_columns);
    if (const auto rounded = round_relaxation(p, m, out.solution)) take_if_better(p, r, *rounded);
}

}  // namespace

double method_code(const std::string& method) {
    for (std::size_t i = 0; i < kMethods.size(); ++i)
        if (method == kMethods[i]) return static_cast<double>(i);
    return 0.0;
}

std::string method_name(double code) {
    const auto i = static_cast<std::size_t>(code);
    return code >= 0 && i < kMethods.size() ? std::string(kMethods[i]) : std::string(kMethods[0]);
}

std::string status_text(double proven, double gap) {
    if (proven > 0.5) return "optimal";
    return fmt::format("best known plan (optimum not proven, gap {:.2f}%)", 100.0 * gap);
}

std::string status_text(const OptimalResult& r) {
    if (r.status == OptimalStatus::Infeasible) return "infeasible";
    if (r.status == OptimalStatus::Unsolved) return "unsolved";
    return status_text(r.status == OptimalStatus::Optimal ? 1.0 : 0.0, r.gap());
}

std::map<std::string, double> result_details(const OptimalResult& r) {
    std::map<std::string, double> d;
    d["optimal_proven"] = r.status == OptimalStatus::Optimal ? 1.0 : 0.0;
    d["optimal_objective_ms"] = r.time_ms;
    d["optimal_bound_ms"] = r.bound_ms;
    d["optimal_gap"] = r.gap();
    d["optimal_method"] = method_code(r.method);
    if (!r.incumbent.empty()) d["optimal_incumbent_ms"] = r.incumbent_ms;
    if (r.solver_killed_by != 0) d["optimal_solver_signal"] = r.solver_killed_by;
    return d;
}

OptimalResult solve_optimal(const Workload& w, std::uint64_t budget_bytes, const OptimalOptions& options) {
    const RematProblem p = make_problem(w, budget_bytes);
    OptimalResult r;
    r.compute_ms = p.compute_ms();
    if (const auto why = infeasibility_reason(p)) {
        r.status = OptimalStatus::Infeasible;
        r.reason = *why;
        return r;
    }
    const Incumbent best = best_candidate(p, options.candidates, r.candidates);
    if (best.schedule) {
        take_if_better(p, r, *best.schedule);
        r.incumbent = best.name;
        r.incumbent_ms = r.time_ms;
    }
    r.bound_ms = r.compute_ms;  // no plan runs faster than the compute alone
    // Where recomputing nothing fits the budget, a plan runs in the compute time, the
    // bound, and no solver can do better: it would spend its time limit proving so (2.8 s
    // of CBC for the example MLP at its peak, under a 2-second limit).
    take_if_better(p, r, empty_schedule(p));
    if (!r.plan.empty() && r.time_ms - r.compute_ms <= 1e-9 * std::max(1.0, r.time_ms)) {
        r.status = OptimalStatus::Optimal;
        r.bound_ms = r.time_ms;
        r.reason = "no recomputation is needed within the budget";
        return r;
    }
    bool solved = false;
    if (options.use_chain_dp) {
        if (const auto chain = chain_of(p)) {
            if (const auto dp = solve_chain(p, *chain, options.max_dp_work)) {
                solved = true;
                r.method = "chain dp";
                r.solve_seconds += dp->seconds;
                if (!dp->schedule) {
                    if (r.plan.empty()) {
                        r.status = OptimalStatus::Infeasible;
                        r.reason = "infeasible: the chain's dynamic program finds no plan within the budget";
                        return r;
                    }
                    r.reason = "the chain's dynamic program finds no plan, yet a candidate fits (one that recomputes a backward "
                               "op, which the recursion leaves out): its plan is kept";
                } else {
                    take_if_better(p, r, *dp->schedule);
                    r.bound_ms = r.compute_ms + dp->recompute_ms;
                }
            }
        }
    }
    if (!solved && options.use_milp) {
        // Infeasible only where a solver proves it: a time limit that came first is not a proof.
        r.status = OptimalStatus::Unsolved;
        const std::size_t columns = estimated_columns(p);
        try {
            if (columns <= options.max_milp_columns) solve_with_milp(p, options, best, r);
            else if (columns <= options.max_lp_columns) solve_with_relaxation(p, options, r);
            else
                r.reason = fmt::format("the program would have about {} columns, above the limit of {} for its linear "
                                       "relaxation: the best candidate, with the compute time as the bound",
                                       columns, options.max_lp_columns);
        } catch (const std::length_error& e) {
            r.reason = e.what();
        }
        if (r.status == OptimalStatus::Infeasible && !r.reason.empty() && r.plan.empty()) return r;
    }
    if (r.plan.empty()) {
        // Nothing proved that no plan exists: the limits came first.
        r.status = OptimalStatus::Unsolved;
        r.reason = "no plan found: none of the other policies' plans fits the budget, and " +
                   (r.reason.empty() ? std::string("no solver ran") : r.reason);
        return r;
    }
    // A bound above the plan can only come from a plan outside the program's class.
    if (r.bound_ms > r.time_ms) r.bound_ms = r.time_ms;
    const bool proven = r.time_ms - r.bound_ms <= 1e-9 * std::max(1.0, r.time_ms);
    r.status = proven ? OptimalStatus::Optimal : OptimalStatus::Feasible;
    if (proven) r.bound_ms = r.time_ms;
    return r;
}

}  // namespace memsim::optimal
