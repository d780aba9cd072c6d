#include "models/recompute/capuchin.h"

#include <algorithm>
#include <limits>
#include <span>

#include "models/alloc/os_allocator.h"
#include "models/recompute/plan_builder.h"
#include "models/alloc/replay.h"

namespace memsim {

namespace {

// Cost of recomputing t when every tensor in `dropped` must itself be recomputed.
double chain_cost_ms(const Workload& w, TensorId t, const std::vector<char>& dropped) {
    double cost = 0.0;
    std::vector<int> seen;
    std::vector<TensorId> stack{t};
    while (!stack.empty()) {
        const TensorId u = stack.back();
        stack.pop_back();
        const int op = w.tensors[u].producer;
        if (op == kNoOp || std::find(seen.begin(), seen.end(), op) != seen.end()) continue;
        seen.push_back(op);
        cost += w.ops[op].cost_ms;
        for (TensorId in : w.ops[op].inputs)
            if (dropped[in]) stack.push_back(in);
    }
    return cost;
}

}  // namespace

ExecPlan plan_capuchin(const Workload& w, std::uint64_t budget_bytes, double recompute_limit_ms) {
    OsAllocator os;
    const std::uint64_t peak = replay_peak(w, os);
    if (peak <= budget_bytes) return straight_plan(w);
    const std::uint64_t saving_needed = peak - budget_bytes;

    PlanBuilder b(w);
    b.set_recompute_limit_ms(recompute_limit_ms);
    const int n = static_cast<int>(w.ops.size());
    const int forward_end = std::clamp(w.forward_end, 0, n);
    std::vector<TensorId> candidates;
    for (TensorId t : feature_maps(w))
        if (w.tensors[t].producer != kNoOp && b.used_from(t, forward_end)) candidates.push_back(t);

    std::vector<char> chosen(w.tensors.size(), 0);
    std::uint64_t saved = 0;
    while (saved < saving_needed) {
        TensorId best = -1;
        double best_msps = -1.0;
        for (TensorId t : candidates) {
            if (chosen[t]) continue;
            const double cost = chain_cost_ms(w, t, chosen);
            const double msps = cost > 0 ? static_cast<double>(w.tensors[t].bytes) / cost : std::numeric_limits<double>::infinity();
            if (msps > best_msps) {
                best_msps = msps;
                best = t;
            }
        }
        if (best < 0) break;
        chosen[best] = 1;
        saved += w.tensors[best].bytes;
    }

    // The op after which a chosen tensor is dropped in the forward pass: its last forward reader.
    std::vector<std::vector<TensorId>> drop_after(static_cast<std::size_t>(std::max(forward_end, 1)));
    for (TensorId t = 0; t < static_cast<TensorId>(w.tensors.size()); ++t) {
        if (!chosen[t]) continue;
        int last = w.tensors[t].producer;
        for (int i = last; i < forward_end; ++i)
            if (std::find(w.ops[i].inputs.begin(), w.ops[i].inputs.end(), t) != w.ops[i].inputs.end()) last = i;
        drop_after[static_cast<std::size_t>(last)].push_back(t);
    }
    std::vector<int> last_access(w.tensors.size(), -1);
    for (int i = 0; i < n; ++i) {
        b.regenerate_inputs(i);
        b.compute(i);
        for (TensorId t : w.ops[i].inputs) last_access[t] = i;
        for (TensorId t : w.ops[i].outputs) last_access[t] = i;
        if (i < forward_end) {
            for (TensorId t : drop_after[static_cast<std::size_t>(i)]) b.release(t);
            continue;
        }
        const std::span<const TensorId> next_inputs = i + 1 < n ? std::span<const TensorId>(w.ops[i + 1].inputs)
                                                                : std::span<const TensorId>{};
        while (b.live_bytes() > budget_bytes) {
            TensorId victim = -1;
            for (TensorId t = 0; t < static_cast<TensorId>(w.tensors.size()); ++t) {
                if (!chosen[t] || !b.resident(t) || !b.used_from(t, i + 1)) continue;
                if (std::find(next_inputs.begin(), next_inputs.end(), t) != next_inputs.end()) continue;
                if (victim < 0 || last_access[t] < last_access[victim]) victim = t;
            }
            if (victim < 0) break;
            b.release(victim);
        }
    }
    return b.finish();
}

}  // namespace memsim
