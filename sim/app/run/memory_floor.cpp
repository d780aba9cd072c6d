#include "sim/app/run/memory_floor.h"

#include <algorithm>
#include <vector>

#include <fmt/format.h>

#include "models/allocators.h"
#include "sim/report/text_format.h"

namespace memsim {

namespace {

bool never_evicted(const Tensor& t) { return (t.constant || t.producer == kNoOp) && !t.scratch && t.alias_of < 0; }

}  // namespace

MemoryFloor memory_floor(const Workload& w, const std::vector<TensorRole>& moved) {
    const auto pinned_tensor = [&](TensorId t) {
        return never_evicted(w.tensors[t]) && std::find(moved.begin(), moved.end(), w.tensors[t].role) == moved.end();
    };
    const int n = static_cast<int>(w.ops.size());
    // Per never-evicted tensor the operators it is surely resident over: from its arrival
    // (a constant: op 0 or the op it arrives at; another tensor: its first use) to the op
    // that releases it (else the end).
    std::vector<int> first(w.tensors.size(), -1), last(w.tensors.size(), n - 1);
    for (TensorId t : w.initial_tensors()) first[t] = 0;
    for (int i = 0; i < n; ++i) {
        const Op& op = w.ops[i];
        for (TensorId t : op.arrivals)
            if (first[t] < 0) first[t] = i;
        for (const auto* list : {&op.inputs, &op.outputs})
            for (TensorId t : *list) {
                const TensorId s = storage_of(w, t);
                if (first[s] < 0 && !w.tensors[s].constant) first[s] = i;
            }
        for (TensorId t : op.release) last[storage_of(w, t)] = std::min(last[storage_of(w, t)], i);
    }
    std::vector<std::int64_t> change(static_cast<std::size_t>(n) + 1, 0);
    for (TensorId t = 0; t < static_cast<TensorId>(w.tensors.size()); ++t)
        if (pinned_tensor(t) && first[t] >= 0 && first[t] <= last[t]) {
            change[first[t]] += static_cast<std::int64_t>(w.tensors[t].bytes);
            change[last[t] + 1] -= static_cast<std::int64_t>(w.tensors[t].bytes);
        }
    MemoryFloor floor;
    std::int64_t pinned = 0;
    for (int i = 0; i < n; ++i) {
        pinned += change[i];
        // The operator's own tensors that are not among the pinned ones.
        const Op& op = w.ops[i];
        std::vector<TensorId> own;
        for (const auto* list : {&op.inputs, &op.outputs})
            for (TensorId t : *list) own.push_back(storage_of(w, t));
        for (const ScratchEvent& e : op.scratch)
            if (e.alloc) own.push_back(storage_of(w, e.tensor));
        std::sort(own.begin(), own.end());
        own.erase(std::unique(own.begin(), own.end()), own.end());
        std::uint64_t extra = 0;
        for (TensorId t : own)
            if (!(pinned_tensor(t) && first[t] >= 0 && first[t] <= i && i <= last[t])) extra += w.tensors[t].bytes;
        const std::uint64_t need = static_cast<std::uint64_t>(pinned) + extra;
        floor.pinned_bytes = std::max(floor.pinned_bytes, static_cast<std::uint64_t>(pinned));
        if (floor.op < 0 || need > floor.floor_bytes) floor = {floor.pinned_bytes, need, i};
    }
    return floor;
}

std::optional<std::string> memory_floor_note(const Workload& w, std::uint64_t peak, std::optional<std::uint64_t> budget,
                                             const std::string& allocator, const std::vector<TensorRole>& moved) {
    const MemoryFloor f = memory_floor(w, moved);
    if (f.pinned_bytes == 0 || peak == 0 || f.op < 0) return std::nullopt;
    const auto share = [&](std::uint64_t bytes) { return 100.0 * static_cast<double>(bytes) / static_cast<double>(peak); };
    std::string what = "(weights, inputs: tensors no eviction moves; a swap by role can, policy.swap.select: roles)";
    if (!moved.empty()) {
        std::string roles;
        for (TensorRole r : moved) roles += (roles.empty() ? "" : ", ") + std::string(role_name(r));
        what = fmt::format("(those this run's swap selection keeps on the GPU: roles other than {})", roles);
    }
    std::string note = fmt::format(
        "constants {} are {:.0f}% of the no-policy peak ({} of {}); with operator {} '{}' running beside them no policy "
        "that keeps them on the GPU can go below {} ({:.0f}% of the peak)",
        what, share(f.pinned_bytes), format_bytes_human(f.pinned_bytes), format_bytes_human(peak), f.op, w.ops[f.op].name,
        format_bytes_human(f.floor_bytes), share(f.floor_bytes));
    if (budget && *budget < f.floor_bytes) note += fmt::format(": the budget {} is below it", format_bytes_human(*budget));
    else if (budget && !footprint_is_live_bytes(allocator))  // the floor counts live bytes; this allocator's footprint is more
        note += fmt::format("; the budget {} is above it in live bytes, the only bytes the floor counts: allocator '{}' "
                            "also holds rounding and cache, so this does not say that another policy fits",
                            format_bytes_human(*budget), allocator);
    else if (budget) note += fmt::format("; the budget {} is above it, so another policy may fit", format_bytes_human(*budget));
    return note;
}

}  // namespace memsim
