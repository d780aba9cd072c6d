// Planned recomputation `msps_on_demand` (docs/recompute.md; the reference
// code's KubeDroid ondemand_recompute_via_msps): walk the ops in order; before
// each, regenerate its missing inputs (recursively, ascending tensor id); after each,
// while live bytes exceed the budget, release the resident tensor with the largest
// memory saved per second = bytes / (cost of recomputing it and its missing
// ancestors), among tensors that have a producer, are not read by the next op and
// are read again later. Unlike the reference, it also releases before an op until the
// op's outputs and scratch fit. Recomputed copies are freed after their last use.
#pragma once

#include <cstdint>

#include "models/workload/exec_plan.h"

namespace memsim {

// recompute_limit_ms > 0: a plan whose recomputations exceed it stops (PlanStopped).
ExecPlan plan_msps_on_demand(const Workload& w, std::uint64_t budget_bytes, double recompute_limit_ms = 0);

}  // namespace memsim
