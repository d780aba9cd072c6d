// `mincostflow` exactly as TensorFlow Lite's GPU delegate assigns it
// (MinCostFlowAssignment in tensorflow/lite/delegates/gpu/common/memory_management/
// min_cost_flow_assignment.cc), object ids and sizes included. TFLite breaks no tie
// explicitly; its answer among assignments of equal cost follows from three things,
// all reproduced here:
//  1. Edge insertion order. Vertices: L_i and R_i per record (left: "i hands its object
//     on", right: "i receives an object"), a source and a sink. For record i, in record
//     order: the records whose last_op < first_op(i) are moved from the in-use queue to
//     the released list (cumulative; popped by (last_op, index)); then edges source->L_i
//     (cost 0), R_i->sink (0), source->R_i (a new object, cost size_i) and
//     L_j->R_i (cost max(0, size_i - size_j)) for every released j, in list order. All
//     capacities are 1; every edge has its reverse right after it (capacity 0, cost
//     negated), listed at its head vertex.
//  2. The solver: successive shortest paths from the zero flow, each found by a
//     level-synchronous SPFA (Bellman-Ford by levels: the vertices improved in one level
//     are scanned in the next, each once per level) that scans a vertex's edges in
//     insertion order and relaxes a vertex only on a strict decrease. TFLite keeps the
//     distances unsigned and compares the signed candidate against them, so a candidate
//     below 0 never relaxes a vertex; that is reproduced too (it can leave the flow
//     above the optimum; mincostflow_fast finds the true optimum).
//  3. Extraction: objects are numbered in the order of the saturated source->R_i edges
//     (i opened a new object); the object's next tenant is the twin of the R_k reached
//     from L_j by a saturated L_j->R_k edge, followed depth first; its size is the
//     largest tenant's.
// The network has an edge per (record, earlier released record): O(n^2) edges and
// O(n) SPFA runs over them, fine for GPU-delegate graphs and TFLite's own tests, not for
// whole training profiles (mincostflow.h chooses by record count).
// TFLite's precondition: records in order of first_op (usage_records gives that order);
// otherwise a released record may intersect a later one.
#pragma once

#include "models/plan/plan_types.h"

namespace memsim::plan {

ObjectAssignment mincostflow_tflite(const std::vector<UsageRecord>& records);

}  // namespace memsim::plan
