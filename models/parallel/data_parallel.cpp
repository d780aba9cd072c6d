#include "models/parallel/data_parallel.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace memsim {

std::string_view collective_name(CollectiveKind k) {
    switch (k) {
        case CollectiveKind::all_reduce: return "all_reduce";
        case CollectiveKind::reduce_scatter: return "reduce_scatter";
        case CollectiveKind::all_gather: return "all_gather";
    }
    return "?";
}

ModelStates model_states(const Workload& w) {
    ModelStates m;
    for (const Tensor& t : w.tensors) {
        if (t.alias_of >= 0 || t.scratch) continue;  // a view takes no memory of its own
        if (t.role == TensorRole::parameter) m.parameter += t.bytes;
        else if (t.role == TensorRole::gradient) m.gradient += t.bytes;
        else if (t.role == TensorRole::optimizer_state) m.optimizer_state += t.bytes;
    }
    return m;
}

int first_step_op(const Workload& w) {
    const auto touches_state = [&](TensorId t) {
        return w.tensors[static_cast<std::size_t>(t)].role == TensorRole::optimizer_state;
    };
    for (std::size_t i = 0; i < w.ops.size(); ++i) {
        const Op& op = w.ops[i];
        if (std::any_of(op.inputs.begin(), op.inputs.end(), touches_state) ||
            std::any_of(op.outputs.begin(), op.outputs.end(), touches_state))
            return static_cast<int>(i);
    }
    return static_cast<int>(w.ops.size());
}

namespace {

std::uint64_t shard(std::uint64_t bytes, int ranks) {
    const auto n = static_cast<std::uint64_t>(ranks);
    return bytes / n + (bytes % n != 0 ? 1 : 0);
}

bool sharded(const ZeroStage& s, TensorRole r) {
    return (r == TensorRole::optimizer_state && s.shards_optimizer_state) || (r == TensorRole::gradient && s.shards_gradients) ||
           (r == TensorRole::parameter && s.shards_parameters);
}

}  // namespace

ModelStates rank_model_states(const Workload& w, const ZeroStage& stage, int ranks) {
    ModelStates m;
    for (const Tensor& t : w.tensors) {
        if (t.alias_of >= 0 || t.scratch) continue;
        const std::uint64_t bytes = ranks > 1 && sharded(stage, t.role) ? shard(t.bytes, ranks) : t.bytes;
        if (t.role == TensorRole::parameter) m.parameter += bytes;
        else if (t.role == TensorRole::gradient) m.gradient += bytes;
        else if (t.role == TensorRole::optimizer_state) m.optimizer_state += bytes;
    }
    return m;
}

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
        part.bytes = shard(full.bytes, ranks);
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
        std::erase_if(op.release, [&](TensorId t) { return shard_for(t) >= 0; });
        for (TensorId t : op.outputs)
            if (w.tensors[static_cast<std::size_t>(t)].alias_of >= 0 && shard_for(t) >= 0)
                w.tensors[static_cast<std::size_t>(t)].alias_of = shard_for(t);
    }
}

}  // namespace

double parameter_count(const Workload& w) {
    return w.parameter_count > 0 ? static_cast<double>(w.parameter_count) : static_cast<double>(model_states(w).parameter) / 4;
}

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
    if (stage.shards_parameters)
        throw std::logic_error("shard_for_rank: ZeRO-3 is not simulated (the scenario parser refuses it)");
    RankWorkload r{w, {}, std::nullopt};
    Workload& out = r.workload;
    if (!stage.shards_optimizer_state) return r;
    if (ranks <= 1) {
        if (offload_optimizer) offload_step(r, w, stage, ranks, first_step_op(w));
        return r;
    }
    for (Tensor& t : out.tensors)
        if (t.alias_of < 0 && t.role == TensorRole::optimizer_state) t.bytes = shard(t.bytes, ranks);
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
            if (tensor.alias_of < 0 && !model_state) tensor.bytes = shard(tensor.bytes, ranks);
        }
        for (const ScratchEvent& e : op.scratch)
            if (e.alloc) {
                Tensor& tensor = out.tensors[static_cast<std::size_t>(e.tensor)];
                tensor.bytes = shard(tensor.bytes, ranks);
            }
    }
    if (stage.shards_gradients) shard_gradients(r, ranks, step, bucket_bytes);
    if (offload_optimizer) offload_step(r, w, stage, ranks, step);
    return r;
}

BucketPlan plan_gradient_buckets(const Workload& w, std::optional<std::uint64_t> bucket_bytes) {
    BucketPlan plan;
    plan.bucket_of_storage.assign(w.tensors.size(), -1);
    const std::vector<TensorId> storage = storage_map(w);
    // The op that completes each gradient storage: the last producer of any tensor in it
    // before the optimizer step (a step that clips gradients in place writes them after
    // their reduction).
    const int step = first_step_op(w);
    std::vector<int> complete_after(w.tensors.size(), -1);
    for (std::size_t t = 0; t < w.tensors.size(); ++t) {
        const TensorId s = storage[t];
        if (w.tensors[static_cast<std::size_t>(s)].role != TensorRole::gradient || w.tensors[t].producer >= step) continue;
        complete_after[static_cast<std::size_t>(s)] = std::max(complete_after[static_cast<std::size_t>(s)],
                                                               w.tensors[t].producer);
    }
    std::vector<TensorId> order;
    for (std::size_t s = 0; s < w.tensors.size(); ++s)
        if (w.tensors[s].role == TensorRole::gradient && storage[s] == static_cast<TensorId>(s) && complete_after[s] >= 0)
            order.push_back(static_cast<TensorId>(s));
    std::stable_sort(order.begin(), order.end(), [&](TensorId a, TensorId b) {
        return complete_after[static_cast<std::size_t>(a)] < complete_after[static_cast<std::size_t>(b)];
    });
    for (TensorId s : order) {
        if (plan.buckets.empty() || (bucket_bytes && plan.buckets.back().bytes >= *bucket_bytes)) plan.buckets.emplace_back();
        GradientBucket& b = plan.buckets.back();
        b.storages.push_back(s);
        b.bytes += w.tensors[static_cast<std::size_t>(s)].bytes;
        b.ready_after_op = std::max(b.ready_after_op, complete_after[static_cast<std::size_t>(s)]);
        plan.bucket_of_storage[static_cast<std::size_t>(s)] = static_cast<int>(plan.buckets.size()) - 1;
    }
    return plan;
}

}  // namespace memsim
