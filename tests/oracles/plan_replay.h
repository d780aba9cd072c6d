// A plain replay of an ExecPlan (the step semantics of models/workload/exec_plan.h)
// that checks it can run and measures it: every input resident when an op or a
// recomputation runs, every op computed exactly once and in order, a recomputation
// only of an op already computed and whose outputs are not resident, an explicit
// Release only of a resident tensor (never twice in a row). Live bytes as the os
// allocator counts them (scratch included while its op runs).
#pragma once

#include <cstdint>
#include <string>

#include "models/workload/exec_plan.h"

namespace memsim {

struct PlanReplayResult {
    bool ok = true;
    std::string error;           // the first violation, naming the step
    std::uint64_t peak_bytes = 0;
    int recomputed_ops = 0;
    int releases = 0;            // explicit Release steps
    double compute_ms = 0.0;
    double recompute_ms = 0.0;
    std::uint64_t leaked_bytes = 0;  // resident at the end although the straight plan frees them
};

PlanReplayResult replay_plan(const Workload& w, const ExecPlan& plan);

}  // namespace memsim
