// Which tensors go to disk and when (SPEC section 4, selection). A plan lists, per
// operator, the tensors to swap out after it and the tensors to swap in for it.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "models/workload/workload.h"

namespace memsim {

struct SwapPlan {
    std::vector<std::vector<TensorId>> out_after;  // per op: written to disk after the op
    std::vector<std::vector<TensorId>> in_for;     // per op: read back before the op runs
    std::vector<TensorId> selected;                // every swapped tensor
    std::uint64_t selected_bytes = 0;
};

// A feature map's swap window: written after op `out_op` (its last forward use), read
// back for op `in_op` (its first backward read; -1: none).
struct FeatureMapWindow {
    TensorId tensor;
    int out_op;
    int in_op;
};

// Every feature map's window, in the reference's order (op F-1 down to 0, inputs then
// outputs).
std::vector<FeatureMapWindow> feature_map_windows(const Workload& w);
// The plan that swaps the windows marked in `take` (same size as `windows`).
SwapPlan plan_from_windows(const Workload& w, const std::vector<FeatureMapWindow>& windows, const std::vector<char>& take);

// Bytes each op allocates when it starts (arrivals, outputs, scratch).
std::vector<std::int64_t> op_allocation_bytes(const Workload& w);
// Live bytes during each op (after its allocations, before its frees), nothing swapped.
std::vector<std::int64_t> live_bytes_during(const Workload& w);
// The same under a plan, its writes and reads taken as instantaneous: a swapped tensor
// is absent from the op after its swap-out to the op that reads it back.
std::vector<std::int64_t> planned_live_during(const Workload& w, const SwapPlan& plan);

// The reference rule: every feature map goes out right after the last forward op that
// touches it (inputs first, then outputs, in op order) and comes back for the first
// backward op that reads it.
SwapPlan plan_feature_maps(const Workload& w);

// Budget-driven: only as many feature maps as needed to keep the live-bytes peak (os
// view, writes and reads taken as instantaneous) under `budget`. Greedy: while some
// operator boundary exceeds the budget, swap the not-yet-chosen feature map that is
// idle across the worst boundary with the largest size x idle compute time
// (ties: lower tensor id). Stops when nothing more helps; the engine then enforces the
// budget at run time (waiting for writes, or failing with oom).
SwapPlan plan_budget(const Workload& w, std::uint64_t budget);

// Nothing selected: an empty out/in list per operator.
SwapPlan empty_swap_plan(const Workload& w);

}  // namespace memsim
