// Planned recomputation `capuchin` (docs/recompute.md; the reference code's
// KubeDroid capuchin), with the reference code's bugs fixed: the requested saving is
// (no-budget peak - budget); candidates are the feature maps read in the backward
// pass; they are chosen greedily by memory saved per second, and - unlike the
// reference, whose MSPS values were never updated - each choice updates the others:
// a candidate's recompute cost includes every already chosen ancestor it would have
// to recompute first. A chosen tensor is released after its last forward use and
// regenerated (recursively) when a backward op needs it; after each backward op, while
// live bytes exceed the budget, the least recently used chosen tensor not needed by
// the next op is released.
#pragma once

#include <cstdint>

#include "models/workload/exec_plan.h"

namespace memsim {

// recompute_limit_ms > 0: a plan whose recomputations exceed it stops (PlanStopped).
ExecPlan plan_capuchin(const Workload& w, std::uint64_t budget_bytes, double recompute_limit_ms = 0);

}  // namespace memsim
