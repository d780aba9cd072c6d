#include "models/recompute/optimal/remat_problem.h"

#include <algorithm>

#include <fmt/format.h>

namespace memsim::optimal {

namespace {

int add_value(RematProblem& p, TensorId t, int origin, bool recomputable) {
    const auto id = static_cast<int>(p.values.size());
    Value v;
    v.tensor = t;
    v.bytes = p.workload->tensors[t].bytes;
    v.origin = origin;
    v.recomputable = recomputable;
    p.values.push_back(v);
    p.value_of_tensor[t] = id;
    return id;
}

}  // namespace

double RematProblem::compute_ms() const {
    double total = 0.0;
    for (const OpInfo& op : ops) total += op.cost_ms;
    return total;
}

RematProblem make_problem(const Workload& w, std::uint64_t budget_bytes) {
    RematProblem p;
    p.workload = &w;
    p.budget = budget_bytes;
    const int n = static_cast<int>(w.ops.size());
    p.value_of_tensor.assign(w.tensors.size(), -1);
    p.ops.resize(w.ops.size());
    std::vector<int> arrival(w.tensors.size(), kBeforeFirstOp);
    for (int i = 0; i < n; ++i)
        for (TensorId t : w.ops[i].arrivals) arrival[t] = i;
    // Constants first, by tensor id; then what each op creates, in op order.
    for (TensorId t = 0; t < static_cast<TensorId>(w.tensors.size()); ++t) {
        const Tensor& tensor = w.tensors[t];
        if (tensor.constant && tensor.alias_of < 0 && tensor.producer == kNoOp) add_value(p, t, arrival[t], false);
    }
    for (int i = 0; i < n; ++i) {
        const Op& op = w.ops[i];
        OpInfo& info = p.ops[i];
        info.cost_ms = op.cost_ms;
        for (TensorId t : op.arrivals)
            if (p.value_of_tensor[t] >= 0) {
                info.created.push_back(p.value_of_tensor[t]);
                info.arrivals.push_back(p.value_of_tensor[t]);
                info.compute_bytes += w.tensors[t].bytes;
            }
        for (TensorId t : op.outputs) {
            if (w.tensors[t].alias_of >= 0) continue;  // a view takes no memory: reading it reads its storage
            const int v = add_value(p, t, i, true);
            info.outputs.push_back(v);
            info.created.push_back(v);
            info.output_bytes += w.tensors[t].bytes;
        }
        info.compute_bytes += info.output_bytes;
        info.recompute_bytes = info.output_bytes;
        for (const ScratchEvent& e : op.scratch) {
            if (!e.alloc) continue;
            const bool freed = std::any_of(op.scratch.begin(), op.scratch.end(),
                                           [&](const ScratchEvent& f) { return !f.alloc && f.tensor == e.tensor; });
            info.compute_bytes += w.tensors[e.tensor].bytes;
            if (freed) {
                info.recompute_bytes += w.tensors[e.tensor].bytes;
            } else {
                // Never freed by its op: allocated by the Compute step and resident to the
                // end; a Recompute finds it resident and allocates it again no more.
                const int v = add_value(p, e.tensor, i, false);
                p.values[v].keep_to_end = true;
                info.created.push_back(v);
            }
        }
    }
    std::vector<char> released(w.tensors.size(), 0);
    for (int i = 0; i < n; ++i)
        for (TensorId t : w.ops[i].release) {
            released[t] = 1;
            const int v = p.value_of_tensor[t];
            // A Compute step frees an operator output in its release list; a source stays
            // until the plan releases it (a recomputation may read it).
            if (v >= 0 && p.values[v].recomputable && w.tensors[t].alias_of < 0) p.values[v].freed_by = i;
        }
    for (Value& v : p.values)
        if (!released[v.tensor]) v.keep_to_end = true;
    // Aliases read their storage.
    for (TensorId t = 0; t < static_cast<TensorId>(w.tensors.size()); ++t)
        if (w.tensors[t].alias_of >= 0) p.value_of_tensor[t] = p.value_of_tensor[storage_of(w, t)];
    for (int i = 0; i < n; ++i) {
        OpInfo& info = p.ops[i];
        for (TensorId t : w.ops[i].inputs) {
            const int v = p.value_of_tensor[t];
            if (v >= 0 && std::find(info.inputs.begin(), info.inputs.end(), v) == info.inputs.end()) info.inputs.push_back(v);
        }
        std::sort(info.inputs.begin(), info.inputs.end());
        for (int v : info.inputs) p.values[v].readers.push_back(i);
    }
    return p;
}

std::optional<std::string> infeasibility_reason(const RematProblem& p) {
    const int n = p.op_count();
    std::uint64_t initial = 0;
    for (const Value& v : p.values)
        if (v.origin == kBeforeFirstOp) initial += v.bytes;
    if (initial > p.budget)
        return fmt::format("infeasible: no plan fits the budget of {} B: the constants resident before op 0 hold {} B", p.budget,
                           initial);
    if (n == 0) return std::nullopt;
    // Bytes no plan can have freed at op k's Compute: constants and never-freed scratch
    // created before k that stay to the end, and sources (constants) created before k that
    // op k or a later op still reads.
    std::vector<std::int64_t> pinned(static_cast<std::size_t>(n) + 1, 0);
    std::vector<char> pinned_value(p.values.size(), 0);
    for (std::size_t v = 0; v < p.values.size(); ++v) {
        const Value& value = p.values[v];
        if (value.recomputable) continue;
        const int from = value.origin + 1;  // origin kBeforeFirstOp: from op 0
        int to = n - 1;
        if (!value.keep_to_end) {
            if (value.readers.empty() || value.readers.back() < from) continue;
            to = value.readers.back();
        }
        if (from > to) continue;
        pinned_value[v] = 1;
        pinned[static_cast<std::size_t>(from)] += static_cast<std::int64_t>(value.bytes);
        pinned[static_cast<std::size_t>(to) + 1] -= static_cast<std::int64_t>(value.bytes);
    }
    std::int64_t pinned_here = 0;
    std::vector<char> counted(p.values.size(), 0);
    for (int k = 0; k < n; ++k) {
        pinned_here += pinned[static_cast<std::size_t>(k)];
        const OpInfo& op = p.ops[k];
        std::uint64_t inputs = 0, results = 0;
        for (int v : op.inputs) {
            const Value& value = p.values[v];
            // A constant arriving at k is in what the Compute allocates; one created before
            // and still to be read is pinned already.
            const bool already = value.origin == k || (pinned_value[v] && value.origin < k);
            if (!already) inputs += value.bytes;
            counted[v] = 1;
        }
        if (k == n - 1)
            for (std::size_t v = 0; v < p.values.size(); ++v)
                if (p.values[v].recomputable && p.values[v].keep_to_end && p.values[v].origin < k && !counted[v])
                    results += p.values[v].bytes;
        for (int v : op.inputs) counted[v] = 0;
        const std::uint64_t need = inputs + op.compute_bytes + static_cast<std::uint64_t>(pinned_here) + results;
        if (need <= p.budget) continue;
        const Op& o = p.workload->ops[k];
        std::string parts = fmt::format("its inputs {} B, what its Compute allocates {} B (outputs, scratch), {} B that no "
                                        "plan can free by then (constants still to be read, scratch never freed)",
                                        inputs, op.compute_bytes, pinned_here);
        if (results > 0) parts += fmt::format(", and {} B of results the iteration must end with", results);
        return fmt::format("infeasible: no plan fits the budget of {} B: op {} '{}' needs {} B while it runs: {}", p.budget, k,
                           o.name, need, parts);
    }
    return std::nullopt;
}

}  // namespace memsim::optimal
