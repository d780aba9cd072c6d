#include "sim/engine/eviction_index.h"

#include <algorithm>
#include <cstdlib>

#include <fmt/format.h>

#include "models/recompute/tensor_graph.h"
#include "sim/engine/memory_manager.h"
#include "sim/engine/run_result.h"

namespace memsim {

bool& eviction_index_cross_check() {
    static bool on = [] {
        const char* v = std::getenv("MEMSIM_CROSS_CHECK_EVICTIONS");
        return v != nullptr && *v != '\0' && *v != '0';
    }();
    return on;
}

EvictionIndex::EvictionIndex(const Workload& w, TensorTable& tensors, const MemoryManager& memory, EvictionHeuristic& heuristic,
                             const EvictionView& view)
    : w_(w), tensors_(tensors), memory_(memory), heuristic_(heuristic), view_(view), graph_(heuristic.staleness_cost_graph(w)),
      slot_of_(w.tensors.size(), -1), shadow_evicted_(w.tensors.size(), 0), shadow_cost_(w.tensors.size(), 0.0),
      queued_(w.tensors.size(), 0), walk_mark_(w.tensors.size(), 0) {
    tensors_.track_changes();
    for (TensorId s = 0; s < static_cast<TensorId>(w.tensors.size()); ++s) {
        shadow_evicted_[static_cast<std::size_t>(s)] = view_.evicted(s) ? 1 : 0;
        shadow_cost_[static_cast<std::size_t>(s)] = view_.compute_cost_ms(s);
    }
    const EvictableOrder& order = tensors_.evictable_order();
    for (TensorId t = order.front(); t != EvictableOrder::kEnd; t = order.next(t)) queue(t);
}

void EvictionIndex::queue(TensorId c) {
    if (queued_[static_cast<std::size_t>(c)]) return;
    queued_[static_cast<std::size_t>(c)] = 1;
    queue_.push_back(c);
}

// A storage whose evicted state (or cost while evicted) changed: requeue the storages
// whose region can hold it.
void EvictionIndex::spread(TensorId s) {
    const auto i = static_cast<std::size_t>(s);
    const bool evicted = view_.evicted(s);
    const double cost = view_.compute_cost_ms(s);
    if (evicted == (shadow_evicted_[i] != 0) && (!evicted || cost == shadow_cost_[i])) return;
    shadow_evicted_[i] = evicted ? 1 : 0;
    shadow_cost_[i] = cost;
    walk_from(s, true);   // regions reaching it forwards start at non-evicted parents
    walk_from(s, false);  // and backwards at non-evicted children
}

void EvictionIndex::walk_from(TensorId s, bool backward) {
    const std::uint32_t epoch = ++walk_epoch_;
    walk_mark_[static_cast<std::size_t>(s)] = epoch;
    std::vector<TensorId>& stack = walk_stack_;
    stack.assign(1, s);
    while (!stack.empty()) {
        const TensorId cur = stack.back();
        stack.pop_back();
        for (TensorId u : (backward ? graph_->parents : graph_->children).of(cur)) {
            if (walk_mark_[static_cast<std::size_t>(u)] == epoch) continue;
            walk_mark_[static_cast<std::size_t>(u)] = epoch;
            if (view_.evicted(u)) stack.push_back(u);
            else queue(u);
        }
    }
}

void EvictionIndex::update(TensorId c, int slot, double now_ms) {
    if (memory_.evictable(c))
        tournament_.set(slot, {heuristic_.staleness_cost(view_, c), static_cast<double>(w_.tensors[c].bytes), view_.last_access_ms(c)},
                        now_ms);
    else if (tournament_.held(slot))
        tournament_.clear(slot, now_ms);
}

TensorId EvictionIndex::choose() {
    const double now_ms = view_.now_ms();
    for (TensorId t : tensors_.take_changed()) {
        queue(tensors_.storage(t));
        if (graph_) spread(graph_->storage_of[static_cast<std::size_t>(t)]);
    }
    const EvictableOrder& order = tensors_.evictable_order();
    std::vector<TensorId> fresh;
    for (TensorId c : queue_) {
        queued_[static_cast<std::size_t>(c)] = 0;
        int& slot = slot_of_[static_cast<std::size_t>(c)];
        const bool listed = order.contains(c);
        if (slot >= 0 && (!listed || slot_seq_[static_cast<std::size_t>(slot)] != tensors_.seq(c))) {
            if (tournament_.held(slot)) tournament_.clear(slot, now_ms);
            slot_tensor_[static_cast<std::size_t>(slot)] = kNone;
            slot = -1;
        }
        if (!listed) continue;
        if (slot >= 0) update(c, slot, now_ms);
        else fresh.push_back(c);
    }
    queue_.clear();
    // Newly listed tensors go after every slot already held, in the order's order.
    std::sort(fresh.begin(), fresh.end(), [&](TensorId a, TensorId b) { return tensors_.seq(a) < tensors_.seq(b); });
    if (static_cast<std::size_t>(next_slot_) + fresh.size() > static_cast<std::size_t>(tournament_.capacity()))
        compact(fresh.size(), now_ms);
    for (TensorId c : fresh) {
        const int slot = next_slot_++;
        slot_of_[static_cast<std::size_t>(c)] = slot;
        slot_tensor_[static_cast<std::size_t>(slot)] = c;
        slot_seq_[static_cast<std::size_t>(slot)] = tensors_.seq(c);
        update(c, slot, now_ms);
    }
    const int slot = tournament_.winner(now_ms);
    if (slot == StalenessTournament::kNone) return kNone;
    const TensorId chosen = slot_tensor_[static_cast<std::size_t>(slot)];
    check(chosen, slot);
    return chosen;
}

// Slots run out: the held ones are renumbered from 0 in order, into room for twice them.
void EvictionIndex::compact(std::size_t extra, double now_ms) {
    struct Kept {
        TensorId tensor;
        std::uint64_t seq;
        bool held;
        StalenessEntry entry;
    };
    std::vector<Kept> kept;
    for (int s = 0; s < next_slot_; ++s)
        if (const TensorId c = slot_tensor_[static_cast<std::size_t>(s)]; c != kNone)
            kept.push_back({c, slot_seq_[static_cast<std::size_t>(s)], tournament_.held(s), tournament_.entry(s)});
    tournament_.reset(static_cast<int>(std::max<std::size_t>(1024, 2 * (kept.size() + extra))));
    const auto capacity = static_cast<std::size_t>(tournament_.capacity());
    slot_tensor_.assign(capacity, kNone);
    slot_seq_.assign(capacity, 0);
    next_slot_ = 0;
    for (const Kept& k : kept) {
        const int slot = next_slot_++;
        slot_of_[static_cast<std::size_t>(k.tensor)] = slot;
        slot_tensor_[static_cast<std::size_t>(slot)] = k.tensor;
        slot_seq_[static_cast<std::size_t>(slot)] = k.seq;
        if (k.held) tournament_.place(slot, k.entry);
    }
    tournament_.rebuild(now_ms);
}

// The chosen tensor is evictable and its slot holds what the heuristic says of it now.
void EvictionIndex::check(TensorId c, int slot) const {
    const StalenessEntry& e = tournament_.entry(slot);
    const double cost = heuristic_.staleness_cost(view_, c);
    if (!memory_.evictable(c) || e.cost != cost || e.last_access_ms != view_.last_access_ms(c))
        throw InvariantError(fmt::format("the eviction index chose tensor {} from an out-of-date entry (cost {} against {}, "
                                         "last access {} against {} ms)",
                                         w_.tensors[c].name, e.cost, cost, e.last_access_ms, view_.last_access_ms(c)));
}

}  // namespace memsim
