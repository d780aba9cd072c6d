// `mincostflow` (docs/planners.md): TensorFlow Lite's min-cost flow assignment. Up to
// kMincostflowTfliteMaxRecords records (in order of first_op, TFLite's precondition) it
// is TFLite's own algorithm, ids and sizes included (mincostflow_tflite.h); its network
// has an edge per pair of records, so larger record sets (whole training profiles) run
// mincostflow_fast (mincostflow_fast.h: the same flow problem on a merged network, its
// optimal cost, its own choice among equal-cost assignments). The assignment's `note`
// says which ran and why.
#pragma once

#include "models/plan/plan_types.h"

namespace memsim::plan {

// TFLite's network is O(n^2) edges searched O(n) times: 0.23 s of CPU for 500 random
// records, 3.7 s for Squeezenet's 1085 (docs/planners.md).
inline constexpr std::size_t kMincostflowTfliteMaxRecords = 512;

// Whether `mincostflow` runs TFLite's own algorithm on these records (else it runs
// mincostflow_fast, and `memsim plan --strategy all` runs that only once).
bool mincostflow_runs_tflite(const std::vector<UsageRecord>& records);

ObjectAssignment mincostflow(const std::vector<UsageRecord>& records);

}  // namespace memsim::plan
