#include "models/parallel/data_parallel.h"

#include <algorithm>
#include <array>
#include <map>
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

std::uint64_t shard_bytes(std::uint64_t bytes, int ranks) {
    const auto n = static_cast<std::uint64_t>(ranks);
    return bytes / n + (bytes % n != 0 ? 1 : 0);
}

namespace {

bool sharded(const ZeroStage& s, TensorRole r) {
    return (r == TensorRole::optimizer_state && s.shards_optimizer_state) || (r == TensorRole::gradient && s.shards_gradients) ||
           (r == TensorRole::parameter && s.shards_parameters);
}

}  // namespace

ModelStates rank_model_states(const Workload& w, const ZeroStage& stage, int ranks) {
    ModelStates m;
    for (const Tensor& t : w.tensors) {
        if (t.alias_of >= 0 || t.scratch) continue;
        const std::uint64_t bytes = ranks > 1 && sharded(stage, t.role) ? shard_bytes(t.bytes, ranks) : t.bytes;
        if (t.role == TensorRole::parameter) m.parameter += bytes;
        else if (t.role == TensorRole::gradient) m.gradient += bytes;
        else if (t.role == TensorRole::optimizer_state) m.optimizer_state += bytes;
    }
    return m;
}

double parameter_count(const Workload& w) {
    return w.parameter_count > 0 ? static_cast<double>(w.parameter_count) : static_cast<double>(model_states(w).parameter) / 4;
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
