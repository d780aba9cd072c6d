// The optimal planner's candidates from the dynamic heuristics (docs/optimal.md, "Never
// worse than the other policies"): every eviction heuristic runs the scenario's workload
// at its budget (no swapping), and the compute and recompute activities of its run, in
// order, are its plan. The runs happen in one forked child (sim/app/run/child_process.h), so
// this process's SimGrid clock stays where a lone run's starts.
#pragma once

#include <vector>

#include "models/recompute/optimal/incumbents.h"
#include "sim/engine/event_log.h"
#include "sim/scenario/scenario.h"

namespace memsim {

// One candidate per heuristic whose run finished; the others are left out (a run out of
// memory or thrashing has no plan to offer). Throws std::runtime_error when no process
// can be started.
std::vector<optimal::CandidatePlan> heuristic_runs(const Scenario& s, const Workload& w);

// The plan a run took: its compute and recompute activities as Compute and Recompute
// steps, in order.
ExecPlan plan_of_run(const EventLog& log);

}  // namespace memsim
