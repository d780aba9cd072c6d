#include "models/workload/workload.h"

#include <algorithm>

namespace memsim {

double Workload::compute_ms() const {
    double total = 0.0;
    for (const Op& op : ops) total += op.cost_ms;
    return total;
}

std::vector<TensorId> Workload::initial_tensors() const {
    std::vector<char> later(tensors.size(), 0);
    for (const Op& op : ops)
        for (TensorId t : op.arrivals) later[t] = 1;
    std::vector<TensorId> out;
    for (TensorId t = 0; t < static_cast<TensorId>(tensors.size()); ++t)
        if (tensors[t].constant && tensors[t].alias_of < 0 && !later[t]) out.push_back(t);
    return out;
}

TensorId storage_of(const Workload& w, TensorId t) {
    for (std::size_t hops = 0; w.tensors[t].alias_of >= 0 && hops < w.tensors.size(); ++hops) t = w.tensors[t].alias_of;
    return t;
}

std::vector<TensorId> storage_map(const Workload& w) {
    std::vector<TensorId> map(w.tensors.size());
    for (TensorId t = 0; t < static_cast<TensorId>(w.tensors.size()); ++t) map[t] = storage_of(w, t);
    return map;
}

bool has_views(const Workload& w) {
    return std::any_of(w.tensors.begin(), w.tensors.end(), [](const Tensor& t) { return t.alias_of >= 0; });
}

bool has_roles(const Workload& w) {
    return std::any_of(w.tensors.begin(), w.tensors.end(), [](const Tensor& t) { return t.role != TensorRole::other; });
}

std::vector<TensorId> storages_read(const Workload& w, const Op& op) {
    std::vector<TensorId> reads;
    reads.reserve(op.inputs.size());
    for (TensorId t : op.inputs) {
        const TensorId s = storage_of(w, t);
        if (std::find(reads.begin(), reads.end(), s) == reads.end()) reads.push_back(s);
    }
    return reads;
}

Workload with_storage_reads(const Workload& w) {
    Workload out = w;
    for (Op& op : out.ops) op.inputs = storages_read(w, op);
    return out;
}

std::vector<TensorId> end_of_iteration_requests(const Workload& w) {
    if (w.end_of_log_requests) return *w.end_of_log_requests;
    std::vector<char> released(w.tensors.size(), 0);
    for (const Op& op : w.ops)
        for (TensorId t : op.release) released[t] = 1;
    std::vector<TensorId> out;
    for (TensorId t = 0; t < static_cast<TensorId>(w.tensors.size()); ++t)
        if (!released[t] && !w.tensors[t].scratch) out.push_back(t);
    return out;
}

std::vector<UsageRecord> usage_records(const Workload& w) {
    const int n = static_cast<int>(w.ops.size());
    std::vector<int> first(w.tensors.size(), -1), last(w.tensors.size(), -1);
    auto touch = [&](TensorId t, int i) {
        if (first[t] < 0) first[t] = i;
        last[t] = std::max(last[t], i);
    };
    for (TensorId t : w.initial_tensors()) touch(t, 0);
    std::vector<bool> released(w.tensors.size(), false);
    for (int i = 0; i < n; ++i) {
        const Op& op = w.ops[i];
        for (TensorId t : op.arrivals) touch(t, i);
        for (TensorId t : op.outputs) touch(t, i);
        for (TensorId t : op.inputs) touch(t, i);
        for (const ScratchEvent& e : op.scratch) {
            touch(e.tensor, i);
            if (!e.alloc) released[e.tensor] = true;
        }
        for (TensorId t : op.release) {
            touch(t, i);
            released[t] = true;
        }
    }
    std::vector<UsageRecord> records;
    for (TensorId t = 0; t < static_cast<TensorId>(w.tensors.size()); ++t) {
        const Tensor& tensor = w.tensors[t];
        if (first[t] < 0 || tensor.alias_of >= 0) continue;
        // A tensor nobody releases (final outputs, parameters, a scratch never freed) lives to the end.
        const bool lives_to_end = !released[t];
        records.push_back({t, tensor.bytes, first[t], lives_to_end ? n - 1 : last[t]});
    }
    std::stable_sort(records.begin(), records.end(),
                     [](const UsageRecord& a, const UsageRecord& b) { return a.first_op < b.first_op; });
    return records;
}

std::vector<TensorId> feature_maps(const Workload& w) {
    std::vector<bool> produced(w.tensors.size(), false), released(w.tensors.size(), false);
    for (int i = 0; i < w.forward_end && i < static_cast<int>(w.ops.size()); ++i) {
        for (TensorId t : w.ops[i].outputs) produced[t] = true;
        for (TensorId t : w.ops[i].release) released[t] = true;
    }
    std::vector<TensorId> out;
    for (TensorId t = 0; t < static_cast<TensorId>(w.tensors.size()); ++t)
        if (produced[t] && !released[t] && !w.tensors[t].scratch && w.tensors[t].alias_of < 0)
            out.push_back(t);
    return out;
}

std::uint64_t feature_map_bytes(const Workload& w) {
    std::uint64_t total = 0;
    for (TensorId t : feature_maps(w)) total += w.tensors[t].bytes;
    return total;
}

ConstantTotals constant_totals(const Workload& w) {
    ConstantTotals totals;
    for (const Tensor& t : w.tensors)
        if (t.constant && t.alias_of < 0) {
            ++totals.count;
            totals.bytes += t.bytes;
        }
    return totals;
}

}  // namespace memsim
