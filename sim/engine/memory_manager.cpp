#include "sim/engine/memory_manager.h"

#include <algorithm>
#include <utility>

#include <fmt/format.h>

#include "sim/engine/oom_report.h"
#include "sim/engine/policy_view.h"
#include "sim/engine/semantics_rules.h"
#include "sim/engine/swap_io.h"
#include "sim/engine/run_result.h"

namespace memsim {

MemoryManager::MemoryManager(const EngineContext& ctx, EvictionPolicy policy)
    : w_(ctx.workload),
      tensors_(ctx.tensors),
      clock_(ctx.clock),
      log_(ctx.log),
      allocator_(ctx.config.make_allocator()),
      budget_(ctx.config.budget),
      policy_(std::move(policy)),
      rules_(ctx.rules),
      spiller_(ctx.io),
      view_(ctx.view),
      regenerated_dead_(ctx.workload.tensors.size()) {
    allocator_->set_capacity(budget_);
    allocator_->prepare(w_);
    if (budget_) tensors_.keep_evictable_order();  // only make_room evicts
}

void MemoryManager::record_allocator_events(int op) const {
    std::vector<AllocatorEvent> events;
    allocator_->take_events(events);
    if (!log_.recording) return;
    for (const AllocatorEvent& e : events) log_.allocator_events.push_back({clock_.now(), op, e});
}

MemoryManager::~MemoryManager() = default;

void MemoryManager::allocate(TensorId t, int op) {
    const std::uint64_t bytes = w_.tensors[t].bytes;
    if (w_.tensors[t].alias_of >= 0) {
        tensors_[t].where = Where::Resident;
        return;
    }
    if (budget_) make_room(bytes, op);
    allocator_->allocate(t, bytes);
    record_allocator_events(op);
    if (log_.recording) log_.resident(clock_.now(), t, true);
    live_bytes_ += bytes;
    live_by_role_[static_cast<std::size_t>(w_.tensors[t].role)] += bytes;
    if (live_bytes_ > live_peak_) {
        live_peak_ = live_bytes_;
        peak_by_role_ = live_by_role_;
    }
    if (!transient_.empty()) count_transient(t, true);
    TensorState& st = tensors_[t];
    st.where = Where::Resident;
    tensors_.stamp_evictable(t);
    tensors_.list_evictable(t);
    rules_.on_allocated(t);
    sample();
}

void MemoryManager::free_memory(TensorId t, int op) {
    TensorState& st = tensors_[t];
    if (w_.tensors[t].alias_of >= 0) {
        st.where = Where::Absent;
        return;
    }
    if (st.where != Where::Resident)
        throw InvariantError(fmt::format("op {}: tensor {} freed while not resident", op, w_.tensors[t].name));
    const std::uint64_t bytes = w_.tensors[t].bytes;
    if (live_bytes_ < bytes)
        throw InvariantError(fmt::format("op {}: freeing tensor {} would make memory negative", op, w_.tensors[t].name));
    allocator_->release(t);
    record_allocator_events(op);
    tensors_.unlist_evictable(t);
    if (log_.recording) log_.resident(clock_.now(), t, false);
    live_bytes_ -= bytes;
    live_by_role_[static_cast<std::size_t>(w_.tensors[t].role)] -= bytes;
    if (!transient_.empty()) count_transient(t, false);
    st.where = Where::Absent;
    sample();
}

void MemoryManager::mark_transient(TensorId t, TransientKind kind) {
    if (transient_.empty()) transient_.assign(w_.tensors.size(), TransientKind::none);
    transient_[static_cast<std::size_t>(t)] = kind;
}

void MemoryManager::count_transient(TensorId t, bool allocated) {
    const TransientKind kind = transient_[static_cast<std::size_t>(t)];
    if (kind == TransientKind::none) return;
    TransientBytes& live = transient_live_;
    std::uint64_t& kind_live = kind == TransientKind::gathered_parameter ? live.gathered_parameters : live.unreduced_gradients;
    kind_live = allocated ? kind_live + w_.tensors[t].bytes : kind_live - w_.tensors[t].bytes;
    live.peak = live.gathered_parameters + live.unreduced_gradients;
    TransientBytes& most = transient_peaks_;
    most.gathered_parameters = std::max(most.gathered_parameters, live.gathered_parameters);
    most.unreduced_gradients = std::max(most.unreduced_gradients, live.unreduced_gradients);
    most.peak = std::max(most.peak, live.peak);
}

bool MemoryManager::evictable(TensorId t) const {
    const TensorState& st = std::as_const(tensors_)[t];  // a read: not a change (TensorTable::touch)
    const Tensor& tensor = w_.tensors[t];
    return st.where == Where::Resident && !st.writing && !st.reading && st.locks == 0 && !tensor.constant &&
           tensor.producer != kNoOp && !tensor.scratch && tensor.alias_of < 0 && rules_.evictable_by_use(t);
}

// Budget enforcement: wait for writes that will free memory, then evict (drop for
// recomputation, or swap out), else the run is out of memory.
void MemoryManager::make_room(std::uint64_t bytes, int op) {
    while (allocator_->footprint_if_allocated(bytes) > *budget_) {
        if (spiller_.writes_will_free()) {
            clock_.wait_until([&] { return !spiller_.writes_will_free() || allocator_->footprint_if_allocated(bytes) <= *budget_; },
                              op, "waiting for swap-outs to free memory");
            continue;
        }
        if (drop_regenerated_dead(op)) continue;
        if (staleness_index_ready()) {
            if (const TensorId t = choose_indexed(op); t != EvictionIndex::kNone) {
                evict(t, op);
                continue;
            }
        } else if (policy_.heuristic || policy_.spill) {
            const std::vector<TensorId> candidates = evictable_candidates();
            if (!candidates.empty()) {
                evict(choose_victim(candidates, op), op);
                continue;
            }
        }
        out_of_memory(bytes, op);
    }
}

void MemoryManager::out_of_memory(std::uint64_t bytes, int op) const {
    // The allocator's own account first (torch_caching frees its cache trying, as PyTorch does).
    const std::string figures = allocator_->out_of_memory(bytes);
    record_allocator_events(op);
    const std::string message = oom_message(w_, tensors_, *allocator_, *budget_, bytes, op, [&](TensorId t) { return evictable(t); },
                                            policy_.heuristic || policy_.spill);
    throw RunStopped{"oom", figures.empty() ? message : message + "; " + figures};
}

// A dead tensor brought back for a regeneration stays while the requesting op runs,
// so sibling branches find it; under memory pressure it goes first (oldest first),
// before the heuristic evicts anything still needed.
bool MemoryManager::drop_regenerated_dead(int op) {
    const TensorId t = regenerated_dead_.take_first([&](TensorId listed) {
        const TensorState& st = std::as_const(tensors_)[listed];  // a read: not a change (TensorTable::touch)
        return st.where == Where::Resident && st.released && st.locks == 0 && !st.writing && !st.reading && !st.written;
    });
    if (t == RegeneratedQueue::kNoTensor) return false;
    free_memory(t, op);
    return true;
}

// The evictable tensors in evictable order: what a scan scores.
std::vector<TensorId> MemoryManager::evictable_candidates() const {
    std::vector<TensorId> candidates;
    const EvictableOrder& order = tensors_.evictable_order();
    for (TensorId t = order.front(); t != EvictableOrder::kEnd; t = order.next(t))
        if (evictable(t)) candidates.push_back(t);
    return candidates;
}

// A staleness-form heuristic's candidates are indexed from the first eviction on.
bool MemoryManager::staleness_index_ready() {
    if (!index_ && policy_.heuristic && policy_.heuristic->has_staleness_cost())
        index_ = std::make_unique<EvictionIndex>(w_, tensors_, *this, *policy_.heuristic, view_);
    return index_ != nullptr;
}

TensorId MemoryManager::choose_indexed(int op) {
    const TensorId chosen = index_->choose();
    if (eviction_index_cross_check()) {
        const std::vector<TensorId> candidates = evictable_candidates();
        const TensorId scanned = candidates.empty() ? EvictionIndex::kNone : choose_victim(candidates, op);
        if (scanned != chosen)
            throw InvariantError(fmt::format("op {}: the eviction index chose {} where scoring every candidate chooses {}", op,
                                             chosen == EvictionIndex::kNone ? "nothing" : w_.tensors[chosen].name,
                                             scanned == EvictionIndex::kNone ? "nothing" : w_.tensors[scanned].name));
    }
    return chosen;
}

TensorId MemoryManager::choose_victim(const std::vector<TensorId>& candidates, int op) {
    if (policy_.heuristic) return candidates[policy_.heuristic->choose(view_, candidates)];
    return policy_.victim->choose(view_, candidates, op);
}

void MemoryManager::evict(TensorId t, int op) {
    const bool to_disk = policy_.hybrid ? swap_is_cheaper(view_, t, op) : policy_.spill;
    ++(to_disk ? evictions_.to_disk : evictions_.dropped);
    if (policy_.hybrid) ++(to_disk ? evictions_.hybrid_swapped : evictions_.hybrid_dropped);
    if (to_disk) {
        const TierId tier = spiller_.spill(t, op);
        log_.mark(mark::kEvictToDisk, clock_.now(), op, t, w_.tensors[t].bytes, tier);
        spiller_.wait_spilled(t, op);  // the write holds the memory until done; this op waits for it
        return;
    }
    log_.mark(mark::kDrop, clock_.now(), op, t, w_.tensors[t].bytes);
    drop(t, op);
}

void MemoryManager::drop(TensorId t, int op) {
    free_memory(t, op);
    tensors_[t].where = Where::Evicted;
    rules_.on_dropped(t);
    if (policy_.heuristic) policy_.heuristic->on_evicted(view_, t);
}

}  // namespace memsim
