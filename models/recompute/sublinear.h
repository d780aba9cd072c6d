// Planned recomputation `sublinear` (docs/recompute.md; Chen et al.'s sqrt(n)
// checkpointing as in the reference code's KubeDroid sublinear). Checkpoint
// candidates are the articulation points (cut vertices) of the forward graph - ops as
// vertices, an undirected edge per producer -> consumer tensor flow among forward ops
// - computed with Boost.Graph. Walking the forward ops, the feature-map bytes produced
// since the last checkpoint accumulate; at a cut vertex where they exceed
// feature-map bytes / sqrt(forward ops), its outputs become a checkpoint. Every other
// feature map is released after its last forward use and regenerated on demand in
// the backward pass from the nearest resident checkpoint. Fixes of the reference: the
// layer count is the number of forward ops (the reference divides by num_layers = 0),
// and shared inputs are handled (the reference's fp_graph.remove raises KeyError).
// Chen's rule fixes the segment size, so the budget does not change the plan.
#pragma once

#include <cstdint>
#include <vector>

#include "models/workload/exec_plan.h"

namespace memsim {

// recompute_limit_ms > 0: a plan whose recomputations exceed it stops (PlanStopped).
ExecPlan plan_sublinear(const Workload& w, std::uint64_t budget_bytes, double recompute_limit_ms = 0);

// The forward ops that are cut vertices of the forward graph, ascending (for tests and docs).
std::vector<int> forward_articulation_ops(const Workload& w);
// The tensors sublinear keeps as checkpoints, ascending.
std::vector<TensorId> sublinear_checkpoints(const Workload& w);

}  // namespace memsim
