// `mincostflow_fast` (docs/planners.md; TensorFlow Lite's formulation): tensor j can hand its
// object to a later tensor i whose interval starts after j's ends, at cost
// max(0, size_i - size_j) (the growth), or i opens a new object at cost size_i. A
// min-cost max-flow (Boost.Graph: push-relabel over the zero-cost edges,
// then successive shortest paths from that flow) picks the hand-overs;
// each chain of hand-overs is one object, sized by its largest tenant. It reaches the
// optimal flow cost of TFLite's network, but among assignments of equal cost it picks
// its own (TFLite's exact choice: mincostflow_tflite.h).
//
// The network is TFLite's with both sides merged without changing its optimum:
//  * supply: the tensors of one size that become free at the same op form one supply
//    node; supply nodes of one size are chained forward in time (a free object stays
//    free);
//  * demand: the tensors of one size that start at the same op are one demand node
//    (they are interchangeable: it sends one unit per tensor to the sink and may take
//    new objects from the source at their size); demand nodes of one size are chained
//    forward in time too (an object that could serve a tensor can serve a later one of
//    the same size);
//  * a supply chain of size c is linked to the demand chain of size k (cost
//    max(0, k - c)) only where the latest supply of c before a demand node of k
//    changes: the earlier demand node already carries that supply forward.
// Paths source -> supply -> ... -> demand -> ... -> sink are exactly the hand-overs
// "j free before i starts" with their costs; the network has O(n + links) edges
// instead of one per (tensor, earlier tensor).
#pragma once

#include "models/plan/plan_types.h"

namespace memsim::plan {

ObjectAssignment mincostflow_fast(const std::vector<UsageRecord>& records);

}  // namespace memsim::plan
