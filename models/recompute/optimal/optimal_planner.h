// `policy.recompute.planner: optimal` (docs/optimal.md): the plan of least iteration
// time within the budget, among the plans of the program's class. Chains are solved by
// dynamic programming; other graphs by the mixed-integer program with CBC, started from
// the best plan the other policies found at that budget; graphs too large for it get the
// linear relaxation's bound and a rounded plan. The answer says what is proven.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "models/recompute/optimal/cbc_solver.h"
#include "models/recompute/optimal/incumbents.h"
#include "models/recompute/optimal/schedule.h"
#include "models/workload/exec_plan.h"

namespace memsim::optimal {

struct OptimalOptions {
    double time_limit_s = 60.0;           // for CBC (policy.recompute.time_limit)
    // Larger programs: the linear relaxation only (CBC proves nothing there within a minute,
    // docs/optimal.md "Sizes and times"); larger still: the best candidate, with the compute
    // time as the bound (CLP needs a minute for about 165,000 columns here).
    std::size_t max_milp_columns = 20000;
    std::size_t max_lp_columns = 120000;
    std::size_t max_dp_work = 400000000;  // chain DP cells x splits; above: as any other graph
    bool use_chain_dp = true;
    bool use_milp = true;                 // false: the chain DP or the candidates only
    std::vector<CandidatePlan> candidates;  // besides the models' own planners (run here)
    // The integer program's and the relaxation's solver; tests put a failing one here.
    std::function<MilpOutcome(const Milp&, const MilpSolveOptions&)> solver = solve_milp;
};

// Unsolved: no plan found, and none proven impossible (the solver's limit came first).
enum class OptimalStatus { Optimal, Feasible, Infeasible, Unsolved };

struct OptimalResult {
    OptimalStatus status = OptimalStatus::Infeasible;
    std::string method = "candidates";  // one of kMethods
    std::string reason;           // infeasible: why; otherwise what limited the answer (may be empty)
    Schedule schedule;
    ExecPlan plan;
    double compute_ms = 0.0;      // every op once
    double time_ms = 0.0;         // the plan's iteration time: compute + recomputation
    double bound_ms = 0.0;        // no plan of the class is faster
    int solver_killed_by = 0;     // the signal that killed CBC's process, if one did (docs/optimal.md)
    std::uint64_t peak_bytes = 0; // the plan's live-bytes peak
    std::string incumbent;        // the best candidate (empty: none fits)
    double incumbent_ms = 0.0;
    std::vector<CandidateResult> candidates;
    double solve_seconds = 0.0;   // CPU time of the solver (not in summaries: it varies)
    std::size_t columns = 0, rows = 0;  // of the program, when built
    [[nodiscard]] double gap() const { return time_ms > 0 ? (time_ms - bound_ms) / time_ms : 0.0; }
};

OptimalResult solve_optimal(const Workload& w, std::uint64_t budget_bytes, const OptimalOptions& options);

// "optimal", "best known plan (optimum not proven, gap 3.21%)", "infeasible", "unsolved":
// what a result is, in words.
std::string status_text(const OptimalResult& r);
std::string status_text(double proven, double gap);

// How a result was found, as the summary's details.optimal_method codes it: 0 the
// candidates alone, 1 the chain's dynamic program, 2 the integer program, 3 its linear
// relaxation and rounding.
inline constexpr std::array<const char*, 4> kMethods{"candidates", "chain dp", "milp", "lp relaxation + rounding"};
double method_code(const std::string& method);
std::string method_name(double code);

// The summary's details of a result (docs/optimal.md, "In a run").
std::map<std::string, double> result_details(const OptimalResult& r);

}  // namespace memsim::optimal
