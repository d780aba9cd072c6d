// The denominator of a summary's overhead: the time of the same workload on the same
// platform with no memory policy at all (no budget, no swap, no recompute), under the
// scenario's semantics. It is simulated, not summed from the operators' costs: a
// run's clock is SimGrid's, whose rounding differs from a plain sum in the last bits
// (docs/outputs.md), and a run without a policy must have an overhead of exactly 1.
#pragma once

#include "models/workload/workload.h"
#include "sim/scenario/scenario.h"

namespace memsim {

// True when the scenario sets no budget, no swapping and no recomputation.
bool has_no_memory_policy(const Scenario& s);

// The scenario with its budget, swapping and recomputation removed.
Scenario without_memory_policy(const Scenario& s);

// The no-policy time of `w` under `s`'s platform and semantics, simulated once per
// workload, speed scale and semantics in this process.
double no_policy_time_ms(const Scenario& s, const Workload& w);

}  // namespace memsim
