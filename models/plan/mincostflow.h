// `mincostflow` (SPEC section 3, TensorFlow Lite's formulation): tensor j can hand its
// object to a later tensor i whose interval starts after j's ends, at cost
// max(0, size_i - size_j) (the growth), or i opens a new object at cost size_i. A
// min-cost max-flow (Boost.Graph's successive shortest paths) picks the hand-overs;
// each chain of hand-overs is one object, sized by its largest tenant.
//
// The network is TFLite's with the left side merged without changing its optimum:
// the tensors of one size that become free at the same op form one supply node, and
// supply nodes of one size are chained forward in time (a free object stays free), so
// tensor i is linked once per size class instead of once per earlier tensor.
#pragma once

#include "models/plan/plan_types.h"

namespace memsim::plan {

ObjectAssignment mincostflow(const std::vector<UsageRecord>& records);

}  // namespace memsim::plan
