#include "sim/engine/rank_collectives.h"

#include <algorithm>
#include <limits>
#include <map>

#include <fmt/format.h>

namespace memsim {

StepCollectives plan_step_collectives(const RankWorkload& rank, const ZeroStage& stage,
                                      std::optional<std::uint64_t> bucket_bytes) {
    const Workload& w = rank.workload;
    StepCollectives s;
    const std::size_t n = w.ops.size();
    s.wait_before_op.assign(n, -1);
    s.after_op.resize(n);
    s.before_op.resize(n);
    s.release_after_op.resize(n);
    // Every collective of the step with where the ranks submit it, before op i (key 2i) or
    // after it (2i + 1): the node runs them in that order, so they end in that order too.
    struct Item {
        long key = 0;
        CollectiveRequest request;
        std::vector<TensorId> frees, gathers;
        int bucket = -1, gather = -1;  // which bucket or parameter gather it is
    };
    std::vector<Item> items;
    const BucketPlan buckets = plan_gradient_buckets(w, bucket_bytes);
    for (std::size_t b = 0; b < buckets.buckets.size(); ++b) {
        const GradientBucket& bucket = buckets.buckets[b];
        items.push_back({2L * bucket.ready_after_op + 1,
                         {stage.gradient_collective, bucket.bytes,
                          fmt::format("{} bucket {}", collective_name(stage.gradient_collective), b), bucket.ready_after_op},
                         stage.shards_gradients ? bucket.storages : std::vector<TensorId>{},
                         {},
                         static_cast<int>(b)});
    }
    for (std::size_t k = 0; k < rank.gathers.size(); ++k) {
        const ParameterGather& g = rank.gathers[k];
        items.push_back(
            {2L * g.issue_op,
             {CollectiveKind::all_gather, g.bytes, fmt::format("all_gather parameters of op {}", g.first_op), g.issue_op},
             {},
             g.storages,
             -1,
             static_cast<int>(k)});
    }
    constexpr long kAfterTheHostStep = std::numeric_limits<long>::max();
    if (stage.gathers_updated_parameters && n > 0) {
        const std::uint64_t parameters = model_states(w).parameter;
        const int last = static_cast<int>(n) - 1;
        if (parameters > 0)
            items.push_back({rank.offload ? kAfterTheHostStep : 2L * last + 1,
                             {CollectiveKind::all_gather, parameters, "all_gather parameters", last},
                             {},
                             {}});
    }
    std::stable_sort(items.begin(), items.end(), [](const Item& a, const Item& b) { return a.key < b.key; });
    std::vector<int> seq_of_bucket(buckets.buckets.size(), -1), seq_of_gather(rank.gathers.size(), -1);
    for (std::size_t seq = 0; seq < items.size(); ++seq) {
        const Item& item = items[seq];
        const int at = item.request.op;
        if (item.key == kAfterTheHostStep) s.gather_after_offload = static_cast<int>(seq);
        else if (item.key % 2 == 1) s.after_op[static_cast<std::size_t>(at)].push_back(static_cast<int>(seq));
        else s.before_op[static_cast<std::size_t>(at)].push_back(static_cast<int>(seq));
        s.requests.push_back(item.request);
        s.frees.push_back(item.frees);
        s.gathers.push_back(item.gathers);
        if (item.bucket >= 0) seq_of_bucket[static_cast<std::size_t>(item.bucket)] = static_cast<int>(seq);
        if (item.gather >= 0) seq_of_gather[static_cast<std::size_t>(item.gather)] = static_cast<int>(seq);
    }
    // A stretch's first op waits for its gather; its parameters go after their last reads.
    for (std::size_t k = 0; k < rank.gathers.size(); ++k) {
        const ParameterGather& g = rank.gathers[k];
        int& wait = s.wait_before_op[static_cast<std::size_t>(g.first_op)];
        wait = std::max(wait, seq_of_gather[k]);
        for (std::size_t j = 0; j < g.storages.size(); ++j)
            s.release_after_op[static_cast<std::size_t>(g.last_ops[j])].push_back(g.storages[j]);
    }
    // An op reading a reduced gradient waits for its bucket; a gradient's shard (ZeRO-2)
    // is ready when its full gradient's bucket is.
    const std::vector<TensorId> storage = storage_map(w);
    const auto bucket_of = [&](TensorId t) {
        TensorId st = storage[static_cast<std::size_t>(t)];
        if (static_cast<std::size_t>(st) < rank.full_gradient_of.size() &&
            rank.full_gradient_of[static_cast<std::size_t>(st)] >= 0)
            st = rank.full_gradient_of[static_cast<std::size_t>(st)];
        return buckets.bucket_of_storage[static_cast<std::size_t>(st)];
    };
    for (std::size_t i = 0; i < n; ++i)
        for (TensorId t : w.ops[i].inputs) {
            const int b = bucket_of(t);
            if (b >= 0 && static_cast<int>(i) > buckets.buckets[static_cast<std::size_t>(b)].ready_after_op)
                s.wait_before_op[i] = std::max(s.wait_before_op[i], seq_of_bucket[static_cast<std::size_t>(b)]);
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

std::vector<TensorId> RankCollectives::to_gather(int op) const {
    std::vector<TensorId> tensors;
    for (const int seq : plan_.before_op[static_cast<std::size_t>(op)])
        for (TensorId t : plan_.gathers[static_cast<std::size_t>(seq)]) tensors.push_back(t);
    return tensors;
}

std::vector<TensorId> RankCollectives::before_op(int op) {
    for (const int seq : plan_.before_op[static_cast<std::size_t>(op)]) {
        node_.submit(rank_, seq);
        submitted_ = seq + 1;
    }
    const int seq = plan_.wait_before_op[static_cast<std::size_t>(op)];
    if (seq >= 0) wait_for(seq, op);
    return landed();
}

std::vector<TensorId> RankCollectives::after_op(int op) {
    for (const int seq : plan_.after_op[static_cast<std::size_t>(op)]) {
        node_.submit(rank_, seq);
        submitted_ = seq + 1;
    }
    return plan_.release_after_op[static_cast<std::size_t>(op)];
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
