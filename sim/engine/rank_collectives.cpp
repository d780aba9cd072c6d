#include "sim/engine/rank_collectives.h"

#include <algorithm>

#include <fmt/format.h>

namespace memsim {

StepCollectives plan_step_collectives(const RankWorkload& rank, const ZeroStage& stage,
                                      std::optional<std::uint64_t> bucket_bytes) {
    const Workload& w = rank.workload;
    StepCollectives s;
    s.wait_before_op.assign(w.ops.size(), -1);
    s.after_op.resize(w.ops.size());
    const BucketPlan buckets = plan_gradient_buckets(w, bucket_bytes);
    for (std::size_t b = 0; b < buckets.buckets.size(); ++b) {
        const GradientBucket& bucket = buckets.buckets[b];
        s.after_op[static_cast<std::size_t>(bucket.ready_after_op)].push_back(static_cast<int>(s.requests.size()));
        s.requests.push_back({stage.gradient_collective, bucket.bytes,
                              fmt::format("{} bucket {}", collective_name(stage.gradient_collective), b), bucket.ready_after_op});
        s.frees.push_back(stage.shards_gradients ? bucket.storages : std::vector<TensorId>{});
    }
    // An op reading a reduced gradient waits for its bucket (buckets end in order: the
    // last one it reads is enough).
    // A gradient's shard (ZeRO-2) is ready when its full gradient's bucket is.
    const std::vector<TensorId> storage = storage_map(w);
    const auto bucket_of = [&](TensorId t) {
        TensorId s = storage[static_cast<std::size_t>(t)];
        if (static_cast<std::size_t>(s) < rank.full_gradient_of.size() && rank.full_gradient_of[static_cast<std::size_t>(s)] >= 0)
            s = rank.full_gradient_of[static_cast<std::size_t>(s)];
        return buckets.bucket_of_storage[static_cast<std::size_t>(s)];
    };
    for (std::size_t i = 0; i < w.ops.size(); ++i)
        for (TensorId t : w.ops[i].inputs) {
            const int b = bucket_of(t);
            if (b >= 0 && static_cast<int>(i) > buckets.buckets[static_cast<std::size_t>(b)].ready_after_op)
                s.wait_before_op[i] = std::max(s.wait_before_op[i], b);
        }
    if (stage.gathers_updated_parameters && !w.ops.empty()) {
        const std::uint64_t parameters = model_states(w).parameter;
        const int last = static_cast<int>(w.ops.size()) - 1;
        if (parameters > 0) {
            if (rank.offload) s.gather_after_offload = static_cast<int>(s.requests.size());
            else s.after_op[static_cast<std::size_t>(last)].push_back(static_cast<int>(s.requests.size()));
            s.requests.push_back({CollectiveKind::all_gather, parameters, "all_gather parameters", last});
            s.frees.emplace_back();
        }
    }
    return s;
}

void RankCollectives::wait_for(int seq, int op) {
    const double start = clock_.now();
    clock_.wait_until([&] { return node_.done(seq) || node_.failure(); }, op, "waiting for a collective");
    if (!node_.done(seq)) throw *node_.failure();
    exposed_ms_ += clock_.now() - start;
}

std::vector<TensorId> RankCollectives::landed() {
    std::vector<TensorId> frees;
    for (; landed_ < static_cast<int>(plan_.requests.size()) && node_.done(landed_); ++landed_)
        for (TensorId t : plan_.frees[static_cast<std::size_t>(landed_)]) frees.push_back(t);
    return frees;
}

std::vector<TensorId> RankCollectives::before_op(int op) {
    const int seq = plan_.wait_before_op[static_cast<std::size_t>(op)];
    if (seq >= 0) wait_for(seq, op);
    return landed();
}

void RankCollectives::after_op(int op) {
    for (const int seq : plan_.after_op[static_cast<std::size_t>(op)]) {
        node_.submit(rank_, seq);
        submitted_ = seq + 1;
    }
}

void RankCollectives::at_start() {
    if (offload_) offload_->reserve();
}

std::vector<TensorId> RankCollectives::at_end(int last_op) {
    if (submitted_ > 0) wait_for(submitted_ - 1, last_op);
    if (offload_) {
        offload_->step(last_op);
        if (plan_.gather_after_offload >= 0) {
            node_.submit(rank_, plan_.gather_after_offload);
            submitted_ = plan_.gather_after_offload + 1;
            wait_for(plan_.gather_after_offload, last_op);
        }
    }
    return landed();
}

}  // namespace memsim

namespace memsim {

void RankCollectives::ended(const std::optional<RunStopped>& stopped) {
    if (ended_) return;
    ended_ = true;
    if (offload_) offload_->release();
    node_.rank_ended(rank_, stopped);
}

}  // namespace memsim
