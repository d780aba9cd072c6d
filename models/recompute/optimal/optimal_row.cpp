#include "models/recompute/optimal/optimal_row.h"

#include <fmt/format.h>

#include "models/recompute/optimal/optimal_planner.h"

namespace memsim {

PlannerOutput plan_optimal(const Workload& w, const PlannerInputs& inputs) {
    optimal::OptimalOptions options;
    options.time_limit_s = inputs.time_limit_s;
    if (inputs.heuristic_runs) options.candidates = inputs.heuristic_runs();
    const optimal::OptimalResult r = optimal::solve_optimal(w, inputs.budget_bytes, options);
    if (r.status == optimal::OptimalStatus::Infeasible) throw PlanStopped("infeasible", r.reason);
    if (r.status == optimal::OptimalStatus::Unsolved) throw PlanStopped("unsolved", r.reason);
    const double recompute_ms = r.time_ms - r.compute_ms;
    if (inputs.recompute_limit_ms > 0 && recompute_ms > inputs.recompute_limit_ms)
        throw PlanStopped("thrash", fmt::format("the best plan recomputes {:.3f} ms, beyond the limit of {:.3f} ms "
                                                "(policy.recompute.max_overhead, else 100, x the compute time)",
                                                recompute_ms, inputs.recompute_limit_ms));
    return {r.plan, optimal::result_details(r)};
}

}  // namespace memsim
