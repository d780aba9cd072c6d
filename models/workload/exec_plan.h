// An execution plan: the sequence of steps the engine's GPU actor runs. The default
// plan computes every operator once, in order; static recomputation planners
// (models/recompute/) return plans with extra recompute and early-release steps.
//
// Step semantics (the engine runs each as SimGrid activities):
//  - Compute op i: allocate outputs, allocate scratch, compute (lane "compute"),
//    free scratch, free op i's `release` list (the order of docs/semantics.md).
//  - Recompute op j: allocate op j's outputs again, allocate scratch, compute
//    (lane "recompute"), free scratch. Its inputs must be resident.
//  - Release tensor t: free t now if it is resident (an early release).
#pragma once

#include <vector>

#include "models/workload/workload.h"

namespace memsim {

enum class StepKind { Compute, Recompute, Release };

struct PlanStep {
    StepKind kind = StepKind::Compute;
    int op = -1;          // Compute / Recompute
    TensorId tensor = -1; // Release
};

using ExecPlan = std::vector<PlanStep>;

inline ExecPlan straight_plan(const Workload& w) {
    ExecPlan plan;
    plan.reserve(w.ops.size());
    for (int i = 0; i < static_cast<int>(w.ops.size()); ++i) plan.push_back({StepKind::Compute, i, -1});
    return plan;
}

}  // namespace memsim
