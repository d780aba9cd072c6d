// The engine: one run of a workload's execution plan under a resolved configuration.
#pragma once

#include "models/workload/exec_plan.h"
#include "models/workload/workload.h"
#include "sim/engine/engine_config.h"
#include "sim/engine/run_result.h"

namespace memsim {

// Out-of-memory and thrashing are results (summary.status); a broken invariant throws
// InvariantError. The configuration is trusted: it comes from resolve_engine_config.
RunResult simulate(const Workload& w, const EngineConfig& config, const ExecPlan& plan);

}  // namespace memsim
