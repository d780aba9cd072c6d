// The workload one data-parallel rank runs (shard_for_rank, models/parallel/data_parallel.h):
// ZeRO's shards of the optimizer state and the step, of the gradients (2) and of the
// parameters with their gathers (3), and the step moved to the host (ZeRO-Offload).
#include <algorithm>
#include <array>
#include <map>

#include "models/parallel/data_parallel.h"

namespace memsim {

namespace {

// ZeRO-2: each gradient storage the backward completes gets its shard, a constant of
// ceil(bytes / ranks) that arrives when its bucket's reduce-scatter is issued (just
// after the op completing the bucket: the partition the reduction writes into); the
// optimizer step reads the shard instead, its in-place writes to the gradient become
// writes to the shard, and the full gradient is no longer released by the step: the
// engine frees it when its bucket's reduce-scatter has ended.
void shard_gradients(RankWorkload& r, int ranks, int step, std::optional<std::uint64_t> bucket_bytes) {
    Workload& w = r.workload;
    const BucketPlan buckets = plan_gradient_buckets(w, bucket_bytes);
    const std::vector<TensorId> storage = storage_map(w);
    r.full_gradient_of.assign(w.tensors.size(), -1);
    std::vector<TensorId> shard_of(w.tensors.size(), -1);
    for (std::size_t t = 0; t < storage.size(); ++t) {
        const TensorId s = storage[t];
        const Tensor& full = w.tensors[static_cast<std::size_t>(s)];
        if (full.role != TensorRole::gradient || full.producer < 0 || full.producer >= step ||
            shard_of[static_cast<std::size_t>(s)] >= 0)
            continue;
        const int bucket = buckets.bucket_of_storage[static_cast<std::size_t>(s)];
        if (bucket < 0) continue;
        const int issued = buckets.buckets[static_cast<std::size_t>(bucket)].ready_after_op + 1;
        if (issued >= static_cast<int>(w.ops.size())) continue;  // completed by the last op: no step reads it
        Tensor part;
        part.name = full.name + ".shard";
        part.bytes = shard_bytes(full.bytes, ranks);
        part.constant = true;
        part.role = TensorRole::gradient;
        const TensorId id = static_cast<TensorId>(w.tensors.size());
        shard_of[static_cast<std::size_t>(s)] = id;
        w.tensors.push_back(part);
        w.ops[static_cast<std::size_t>(issued)].arrivals.push_back(id);
        r.full_gradient_of.push_back(s);
    }
    const auto shard_for = [&](TensorId t) {
        return static_cast<std::size_t>(t) < storage.size()
                   ? shard_of[static_cast<std::size_t>(storage[static_cast<std::size_t>(t)])]
                   : -1;
    };
    for (std::size_t i = static_cast<std::size_t>(step); i < w.ops.size(); ++i) {
        Op& op = w.ops[i];
        std::vector<TensorId> inputs;
        for (TensorId t : op.inputs) {
            const TensorId read = shard_for(t) >= 0 ? shard_for(t) : t;
            if (std::find(inputs.begin(), inputs.end(), read) == inputs.end()) inputs.push_back(read);
        }
        op.inputs = std::move(inputs);
        erase_if(op.release, [&](TensorId t) { return shard_for(t) >= 0; });
        for (TensorId t : op.outputs)
            if (w.tensors[static_cast<std::size_t>(t)].alias_of >= 0 && shard_for(t) >= 0)
                w.tensors[static_cast<std::size_t>(t)].alias_of = shard_for(t);
    }
}

}  // namespace

namespace {

// ZeRO-3 (see shard_for_rank): shards for the parameters, the step on them, and one
// gather per stretch of use outside the step, the parameters of stretches starting at the
// same op gathered together.
void shard_parameters(RankWorkload& r, int ranks, int step) {
    Workload& w = r.workload;
    const std::vector<TensorId> storage = storage_map(w);
    const std::size_t original = w.tensors.size();
    std::vector<TensorId> shard_of(original, -1);
    for (std::size_t s = 0; s < original; ++s) {
        Tensor& full = w.tensors[s];
        if (full.role != TensorRole::parameter || full.alias_of >= 0 || full.producer >= 0 || !full.constant) continue;
        full.constant = false;  // gathered when used
        Tensor part;
        part.name = full.name + ".shard";
        part.bytes = shard_bytes(full.bytes, ranks);
        part.constant = true;
        part.role = TensorRole::parameter;
        shard_of[s] = static_cast<TensorId>(w.tensors.size());
        w.tensors.push_back(part);
    }
    const auto shard_for = [&](TensorId t) {
        return static_cast<std::size_t>(t) < original ? shard_of[static_cast<std::size_t>(storage[static_cast<std::size_t>(t)])]
                                                      : -1;
    };
    // Stretches of use before the step: [first, last] per storage, forward and backward apart.
    struct Use {
        int first = -1, last = -1;
    };
    std::vector<std::array<Use, 2>> uses(original);
    for (int i = 0; i < step; ++i)
        for (TensorId t : w.ops[static_cast<std::size_t>(i)].inputs) {
            if (shard_for(t) < 0) continue;
            Use& u = uses[static_cast<std::size_t>(storage[static_cast<std::size_t>(t)])][i < w.forward_end ? 0 : 1];
            if (u.first < 0) u.first = i;
            u.last = i;
        }
    // A stretch's gather is issued at the previous stretch's first op (prefetch). A
    // parameter whose backward gather would be issued while its forward stretch still
    // holds it (the last layer: end of the forward, start of the backward) stays instead.
    std::map<int, int> issue_of;
    for (const auto& stretches : uses)
        for (const Use& u : stretches)
            if (u.first >= 0) issue_of[u.first] = u.first;
    int previous = -1;
    for (auto& [first, issue] : issue_of) {
        issue = previous >= 0 ? previous : first;
        previous = first;
    }
    for (auto& [forward, backward] : uses)
        if (forward.first >= 0 && backward.first >= 0 && issue_of[backward.first] <= forward.last) {
            forward.last = backward.last;
            backward = Use{};
        }
    std::map<int, ParameterGather> by_first;
    for (std::size_t s = 0; s < original; ++s)
        for (const Use& u : uses[s]) {
            if (u.first < 0) continue;
            ParameterGather& g = by_first[u.first];
            g.storages.push_back(static_cast<TensorId>(s));
            g.last_ops.push_back(u.last);
            g.bytes += w.tensors[s].bytes;
            g.first_op = u.first;
            g.issue_op = issue_of[u.first];
        }
    for (auto& [first, g] : by_first) r.gathers.push_back(std::move(g));
    for (std::size_t i = 0; i < w.ops.size(); ++i) {
        Op& op = w.ops[i];
        erase_if(op.release, [&](TensorId t) { return shard_for(t) >= 0; });
        erase_if(op.arrivals, [&](TensorId t) { return shard_for(t) >= 0; });
        if (static_cast<int>(i) < step) continue;
        std::vector<TensorId> inputs;
        for (TensorId t : op.inputs) {
            const TensorId read = shard_for(t) >= 0 ? shard_for(t) : t;
            if (std::find(inputs.begin(), inputs.end(), read) == inputs.end()) inputs.push_back(read);
        }
        op.inputs = std::move(inputs);
        for (TensorId t : op.outputs)
            if (w.tensors[static_cast<std::size_t>(t)].alias_of >= 0 && shard_for(t) >= 0)
                w.tensors[static_cast<std::size_t>(t)].alias_of = shard_for(t);
    }
    if (w.end_of_log_requests)
        for (TensorId& t : *w.end_of_log_requests)
            if (shard_for(t) >= 0) t = shard_for(t);
}

}  // namespace

namespace {

// ZeRO-Offload: the step's ops do nothing on the GPU and the optimizer state is not there.
void offload_step(RankWorkload& r, const Workload& given, const ZeroStage& stage, int ranks, int step) {
    Workload& w = r.workload;
    std::vector<char> gone(w.tensors.size(), 0);
    for (std::size_t i = static_cast<std::size_t>(step); i < w.ops.size(); ++i) {
        Op& op = w.ops[i];
        for (TensorId t : op.outputs) gone[static_cast<std::size_t>(t)] = 1;
        op.cost_ms = op.flops = op.bytes_moved = 0;
        op.inputs.clear();
        op.outputs.clear();
        op.release.clear();
        op.scratch.clear();
        op.recomputes = kNoOp;
    }
    for (std::size_t t = 0; t < w.tensors.size(); ++t)
        if (w.tensors[t].role == TensorRole::optimizer_state) {
            w.tensors[t].constant = false;
            gone[t] = 1;
        }
    if (w.end_of_log_requests)
        std::erase_if(*w.end_of_log_requests, [&](TensorId t) { return gone[static_cast<std::size_t>(t)] != 0; });
    const ModelStates held = rank_model_states(given, stage, ranks);
    OffloadStep o;
    o.gradient_bytes = rank_model_states(given, *zero_stage(2), ranks).gradient;  // its partition, whatever the stage
    o.parameter_bytes = rank_model_states(given, *zero_stage(3), ranks).parameter;
    o.optimizer_state_bytes = held.optimizer_state;
    o.parameters = parameter_count(given) / ranks;
    r.offload = o;
}

}  // namespace

RankWorkload shard_for_rank(const Workload& w, const ZeroStage& stage, int ranks, std::optional<std::uint64_t> bucket_bytes,
                            bool offload_optimizer) {
    RankWorkload r{w, {}, std::nullopt, {}};
    Workload& out = r.workload;
    if (!stage.shards_optimizer_state) return r;
    if (ranks <= 1) {
        if (offload_optimizer) offload_step(r, w, stage, ranks, first_step_op(w));
        return r;
    }
    for (Tensor& t : out.tensors)
        if (t.alias_of < 0 && t.role == TensorRole::optimizer_state) t.bytes = shard_bytes(t.bytes, ranks);
    const int step = first_step_op(w);
    for (std::size_t i = static_cast<std::size_t>(step); i < out.ops.size(); ++i) {
        Op& op = out.ops[i];
        op.cost_ms /= ranks;
        op.flops /= ranks;
        op.bytes_moved /= ranks;
        for (TensorId t : op.outputs) {
            Tensor& tensor = out.tensors[static_cast<std::size_t>(t)];
            const bool model_state = tensor.role == TensorRole::parameter || tensor.role == TensorRole::gradient ||
                                     tensor.role == TensorRole::optimizer_state;
            if (tensor.alias_of < 0 && !model_state) tensor.bytes = shard_bytes(tensor.bytes, ranks);
        }
        for (const ScratchEvent& e : op.scratch)
            if (e.alloc) {
                Tensor& tensor = out.tensors[static_cast<std::size_t>(e.tensor)];
                tensor.bytes = shard_bytes(tensor.bytes, ranks);
            }
    }
    if (stage.shards_gradients) shard_gradients(r, ranks, step, bucket_bytes);
    if (stage.shards_parameters) shard_parameters(r, ranks, step);
    if (offload_optimizer) offload_step(r, w, stage, ranks, step);
    return r;
}

}  // namespace memsim
