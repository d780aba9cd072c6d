#include "models/recompute/msps_on_demand.h"

#include <algorithm>
#include <limits>

#include "models/recompute/plan_builder.h"

namespace memsim {

namespace {

// Bytes op i adds while it runs: its outputs plus the most scratch alive at once.
std::uint64_t bytes_while_running(const Workload& w, int i) {
    std::uint64_t outputs = 0, scratch = 0, scratch_peak = 0;
    for (TensorId t : w.ops[i].outputs) outputs += w.tensors[t].bytes;
    for (const ScratchEvent& e : w.ops[i].scratch)
        if (e.alloc) scratch_peak = (scratch += w.tensors[e.tensor].bytes);
    return outputs + scratch_peak;
}

// Releases the resident tensor with the largest MSPS until live bytes <= limit. Only
// tensors read again from op `from` on, and not by op `from` itself nor pinned by a
// recomputation under way, qualify.
void release_until(PlanBuilder& b, std::uint64_t limit, int from) {
    const Workload& w = b.workload();
    const int n = static_cast<int>(w.ops.size());
    std::vector<TensorId> protect;
    if (from < n)
        for (TensorId t : w.ops[from].inputs) protect.push_back(b.storage(t));
    while (b.live_bytes() > limit) {
        if (b.release_dead_ancestor()) continue;  // kept only for sibling regenerations: first to go
        TensorId best = -1;
        double best_msps = -1.0;
        for (TensorId t = 0; t < static_cast<TensorId>(w.tensors.size()); ++t) {
            const Tensor& tensor = w.tensors[t];
            if (!b.resident(t) || tensor.producer == kNoOp || tensor.constant || tensor.scratch || tensor.bytes == 0)
                continue;
            if (!b.used_from(t, from)) continue;  // dead: its release list frees it, nothing to save
            if (b.pinned(t) || std::find(protect.begin(), protect.end(), t) != protect.end()) continue;
            const double cost = b.recompute_cost_ms(t);
            const double msps = cost > 0 ? static_cast<double>(tensor.bytes) / cost : std::numeric_limits<double>::infinity();
            if (msps > best_msps) {  // strict: the lowest id wins a tie
                best_msps = msps;
                best = t;
            }
        }
        if (best < 0) return;  // nothing left to drop: the plan exceeds the budget here
        b.release(best);
    }
}

}  // namespace

ExecPlan plan_msps_on_demand(const Workload& w, std::uint64_t budget_bytes, double recompute_limit_ms) {
    PlanBuilder b(w);
    b.set_recompute_limit_ms(recompute_limit_ms);
    // A recomputation allocates too: room for its outputs and scratch is made before it,
    // by the same rule (without this the plan's own peak went over the budget whenever
    // inputs were regenerated with live bytes near it).
    b.set_before_recompute([&](int op, int for_op) {
        const std::uint64_t running = bytes_while_running(w, op);
        release_until(b, budget_bytes > running ? budget_bytes - running : 0, for_op);
    });
    const int n = static_cast<int>(w.ops.size());
    for (int i = 0; i < n; ++i) {
        b.regenerate_inputs(i);
        // Not in the reference (it only evicts after an op): make room for the op's own
        // outputs and scratch first, so the budget holds while it runs when it can.
        const std::uint64_t running = bytes_while_running(w, i);
        release_until(b, budget_bytes > running ? budget_bytes - running : 0, i);
        b.compute(i);
        release_until(b, budget_bytes, i + 1);
    }
    return b.finish();
}

}  // namespace memsim
