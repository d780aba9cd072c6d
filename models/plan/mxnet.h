// The MXNet-style planner (docs/planners.md): operators in order. At each operator, first
// the records it creates (first_op == op) try in-place reuse: the object of a record that
// dies at this operator (last_op == op, created earlier) with exactly the same size, each
// such object given once, outputs in record order. The others, largest first (ties:
// record order), search the free objects whose size lies in [size / match_range,
// size * match_range]: first the smallest >= size, then the largest smaller (which grows
// to fit); among equal sizes the one freed first. Otherwise a new object.
// An object returns to the free list after the operator where its tenant dies.
// match_range 0 disables reuse of freed objects (in-place reuse has its own switch).
#pragma once

#include "models/plan/plan_types.h"

namespace memsim::plan {

struct MxnetOptions {
    std::uint64_t match_range = 16;
    bool inplace = true;
};

ObjectAssignment mxnet(const std::vector<UsageRecord>& records, const MxnetOptions& options = {});

}  // namespace memsim::plan
