// Runs one scenario on one workload in SimGrid: the run layer (sim/app/run/) resolves the
// scenario into an EngineConfig and the engine (sim/engine/) simulates it: the GPU
// stream actor executes the plan's steps as executions, the disk actor serves a FIFO of
// swap-outs and swap-ins as disk I/Os, and the memory manager accounts every byte
// through the allocator, checks the budget and the invariants, and records the event log.
#pragma once

#include "models/workload/exec_plan.h"
#include "models/workload/workload.h"
#include "sim/engine/run_result.h"
#include "sim/scenario/scenario.h"

namespace memsim {

// A scenario's policy on a loaded workload: validated and resolved (resolve_engine_config
// in sim/app/run/run_config.h), with the measuring runs it needs (sim/app/run/measuring_runs.h),
// then simulated. Bad input raises InputError; out-of-memory and thrashing are results
// (summary.status).
RunResult simulate(const Workload& w, const Scenario& scenario);
RunResult simulate(const Workload& w, const Scenario& scenario, const ExecPlan& plan);

}  // namespace memsim
