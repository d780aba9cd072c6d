#include "models/recompute/optimal/incumbents.h"

#include <fmt/format.h>

#include "models/recompute/capuchin.h"
#include "models/recompute/msps_on_demand.h"
#include "models/recompute/plan_builder.h"
#include "models/recompute/sublinear.h"

namespace memsim::optimal {

namespace {

// A planner that would recompute beyond this many times the compute is a runaway.
constexpr double kPlannerRunaway = 100.0;

void consider(const RematProblem& p, const std::string& name, const Schedule& s, Incumbent& best, double& best_ms,
              std::vector<CandidateResult>& report) {
    CandidateResult r;
    r.name = name;
    const ScheduleCheck c = check_schedule(p, s);
    r.time_ms = c.time_ms;
    if (!c.valid) {
        r.why_not = c.error;
    } else if (c.peak_bytes > p.budget) {
        r.why_not = fmt::format("its schedule peaks at {} B, over the budget", c.peak_bytes);
    } else {
        r.fits = true;
        if (!best.schedule || c.time_ms < best_ms) {
            best.name = name;
            best.schedule = s;
            best_ms = c.time_ms;
        }
    }
    report.push_back(std::move(r));
}

}  // namespace

Incumbent best_candidate(const RematProblem& p, const std::vector<CandidatePlan>& extra,
                         std::vector<CandidateResult>& report) {
    const Workload& w = *p.workload;
    Incumbent best;
    double best_ms = 0.0;
    consider(p, "none", empty_schedule(p), best, best_ms, report);
    using Planner = ExecPlan (*)(const Workload&, std::uint64_t, double);
    const std::pair<const char*, Planner> planners[] = {
        {"msps_on_demand", plan_msps_on_demand}, {"capuchin", plan_capuchin}, {"sublinear", plan_sublinear}};
    for (const auto& [name, planner] : planners) {
        try {
            consider(p, name, from_exec_plan(p, planner(w, p.budget, kPlannerRunaway * p.compute_ms())), best, best_ms, report);
        } catch (const PlanStopped& stop) {
            report.push_back({name, false, 0.0, fmt::format("the planner stopped: {}", stop.what())});
        }
    }
    for (const CandidatePlan& c : extra) consider(p, c.name, from_exec_plan(p, c.plan), best, best_ms, report);
    return best;
}

}  // namespace memsim::optimal
