// Runs one scenario on one workload in SimGrid (the engine is sim/engine/, the run
// pipeline sim/run/): the GPU stream actor executes the plan's steps as executions, the
// disk actor serves a FIFO of swap-outs and swap-ins as disk I/Os, and the memory
// manager accounts every byte through the allocator, checks the budget and the
// invariants, and records the event log.
#pragma once

#include <stdexcept>

#include "models/workload/exec_plan.h"
#include "models/workload/workload.h"
#include "sim/event_log.h"
#include "sim/scenario/scenario.h"
#include "sim/summary.h"

namespace memsim {

struct RunResult {
    Summary summary;
    EventLog log;
};

// An invariant of the run broke (a tensor used while swapped out, memory negative,
// bytes not freed at the end): a bug in a model, reported with the operator.
class InvariantError : public std::logic_error {
public:
    using std::logic_error::logic_error;
};

// A scenario's policy on a loaded workload: validated and resolved (resolve_run_config
// in sim/run/run_config.h), then simulated. Bad input raises InputError; out-of-memory
// and thrashing are results (summary.status).
RunResult simulate(const Workload& w, const Scenario& scenario);
RunResult simulate(const Workload& w, const Scenario& scenario, const ExecPlan& plan);

}  // namespace memsim
