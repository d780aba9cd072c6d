#include "models/swap/hybrid/swap_or_drop.h"

#include <algorithm>
#include <unordered_map>
#include <vector>

namespace memsim {

std::uint64_t regeneration_peak_bytes(const SwapOrDropView& view, TensorId t) {
    // peak(u) = max(inputs + u, max over missing inputs v of (inputs - v + peak(v))),
    // bottom-up over an explicit stack (a chain can be as deep as the workload).
    const Workload& w = view.workload();
    std::unordered_map<TensorId, std::uint64_t> peak;
    std::vector<std::pair<TensorId, bool>> stack{{t, false}};
    const auto missing = [&](TensorId in) { return !view.resident(in) && !view.on_disk(in) && w.tensors[in].producer != kNoOp; };
    while (!stack.empty()) {
        auto [u, expanded] = stack.back();
        stack.pop_back();
        if (peak.contains(u) && !expanded) continue;
        if (w.tensors[u].producer == kNoOp) {  // cannot be regenerated: itself only
            peak[u] = w.tensors[u].bytes;
            continue;
        }
        const Op& op = w.ops[static_cast<std::size_t>(w.tensors[u].producer)];
        if (!expanded) {
            peak[u] = 0;  // in progress: a cycle back to it counts nothing more
            stack.push_back({u, true});
            for (TensorId in : storages_read(w, op))
                if (missing(in) && !peak.contains(in)) stack.push_back({in, false});
            continue;
        }
        const std::vector<TensorId> reads = storages_read(w, op);
        std::uint64_t inputs = 0;
        for (TensorId in : reads) inputs += w.tensors[in].bytes;
        std::uint64_t p = inputs + w.tensors[u].bytes;
        for (TensorId in : reads)
            if (missing(in)) p = std::max(p, inputs - w.tensors[in].bytes + peak[in]);
        peak[u] = p;
    }
    return peak[t];
}

bool swap_is_cheaper(const SwapOrDropView& view, TensorId t, int op) {
    const Workload& w = view.workload();
    const double swap_ms = view.swap_round_trip_ms(t, op);
    double recompute_ms = view.compute_cost_ms(t);
    const int p = w.tensors[t].producer;
    if (p != kNoOp)
        for (TensorId in : storages_read(w, w.ops[p]))
            if (!view.resident(in)) recompute_ms += view.compute_cost_ms(in);
    if (swap_ms < recompute_ms / view.gpu_speed_scale()) return true;
    const auto budget = view.budget_bytes();
    return budget && regeneration_peak_bytes(view, t) > *budget;
}

}  // namespace memsim
