#include "models/recompute/optimal/optimal_row.h"

#include <fmt/format.h>

#include "models/recompute/optimal/optimal_planner.h"

namespace memsim {

std::vector<ParamSpec> optimal_planner_params() {
    // CBC counts CPU time; a minute proves programs of about 50 operators here
    // (docs/optimal.md, "Sizes and times").
    return {duration_param("time_limit", "how long CBC may search (CPU time); then the best plan found and its proven bound")
                .in(1, kMaxParamDurationMs)
                .or_default(optimal::OptimalOptions{}.time_limit_s * 1000.0)};
}

PlannerOutput plan_optimal(const Workload& w, const PlannerInputs& inputs, const PolicyParams& params) {
    optimal::OptimalOptions options;
    options.time_limit_s = params.number("time_limit") / 1000.0;
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
