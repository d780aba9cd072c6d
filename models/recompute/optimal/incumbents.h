// The plans memsim's other policies make at the same budget, as the program's start
// (docs/optimal.md, "Never worse than the other policies"): the static planners run here,
// the dynamic heuristics' runs come from the caller (sim/app/run/heuristic_runs.h). Each
// plan's recomputations become a schedule of the program's class (per stage, the ops it
// recomputed, once each, in op order); the fastest that fits the budget is the incumbent.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "models/recompute/optimal/schedule.h"
#include "models/workload/exec_plan.h"

namespace memsim::optimal {

// A plan another policy made at the same budget: a planner's plan, or the steps a dynamic
// heuristic's run took (only its Compute and Recompute steps count).
struct CandidatePlan {
    std::string name;
    ExecPlan plan;
};

struct CandidateResult {
    std::string name;
    bool fits = false;     // its schedule is valid and within the budget
    double time_ms = 0.0;  // its schedule's iteration time
    std::string why_not;   // when it does not fit
};

struct Incumbent {
    std::string name;
    std::optional<Schedule> schedule;
};

// "none" (no recomputation), msps_on_demand, capuchin and sublinear, then `extra`; every
// one is reported in `report`, in that order.
Incumbent best_candidate(const RematProblem& p, const std::vector<CandidatePlan>& extra,
                         std::vector<CandidateResult>& report);

}  // namespace memsim::optimal
