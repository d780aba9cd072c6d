// Where every tensor is and what it is waiting for, and when the plan uses it next.
#pragma once

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "models/platform/tier.h"
#include "models/workload/exec_plan.h"
#include "models/workload/workload.h"
#include "sim/engine/evictable_order.h"

namespace memsim {

enum class Where : std::uint8_t { Absent, Resident, OnDisk, Evicted };

struct TensorState {
    Where where = Where::Absent;
    bool writing = false;         // a write is queued or in flight; memory still held
    bool written = false;         // write done, memory held until the policy frees it
    bool keep_resident = false;   // the write must not free it: needed again before it ended
    bool reading = false;         // read queued or in flight; memory already allocated
    bool released = false;        // its last use is behind it
    bool has_disk_copy = false;
    TierId copy_tier = kDefaultTier;  // where its swapped copy (written or being written) is
    // A byte-sized Where and the two ints side by side: 40 bytes a tensor, not 48 (a run
    // fills a table of these, and each new page of it costs a page fault).
    int locks = 0;
    int recomputes = 0;
    double last_access_ms = 0;
    std::uint64_t evictable_seq = 0;  // when it last became evictable (allocation or last unlock)
    std::size_t next_use = 0;     // index into the tensor's uses
};

class TensorTable {
public:
    // Locks, last-access stamps and uses belong to storages, in every semantics: a view
    // resolves to its root (storage_of), so a storage read later only through a view has
    // a future use and a view's reader pins its storage.
    TensorTable(const Workload& w, const ExecPlan& plan, double gpu_speed_scale);

    // Writable access marks the tensor changed (see track_changes).
    TensorState& operator[](TensorId t) {
        touch(t);
        return state_[t];
    }
    const TensorState& operator[](TensorId t) const { return state_[t]; }
    [[nodiscard]] std::uint64_t seq(TensorId t) const { return state_[t].evictable_seq; }
    [[nodiscard]] TensorId size() const { return static_cast<TensorId>(state_.size()); }

    [[nodiscard]] TensorId storage(TensorId t) const { return storage_of_[t]; }
    void lock(TensorId t) { ++(*this)[storage(t)].locks; }
    void unlock(TensorId t) {
        if (--(*this)[storage(t)].locks == 0) stamp_evictable(storage(t));
    }
    void stamp_access(TensorId t, double ms) { (*this)[storage(t)].last_access_ms = ms; }
    void stamp_evictable(TensorId t) {
        (*this)[t].evictable_seq = ++insert_counter_;
        if (order_.contains(t)) order_.push_back(t);  // keeps the order by evictable_seq
    }
    // Resident tensors by evictable_seq; the memory manager lists and unlists them. The
    // order is kept only when the memory manager asks (a run with a budget, the only one
    // that evicts): in any other run listing does nothing, and no tensor pays its two
    // ints or its list moves per allocation and free.
    void keep_evictable_order() { order_ = EvictableOrder(state_.size()); }
    void list_evictable(TensorId t) {
        if (!order_.kept()) return;
        touch(t);
        order_.push_back(t);
    }
    void unlist_evictable(TensorId t) {
        if (!order_.kept()) return;
        touch(t);
        order_.erase(t);
    }
    [[nodiscard]] const EvictableOrder& evictable_order() const { return order_; }
    // The plan's next read of t's storage (through any view) is behind us.
    void mark_used(TensorId t) { ++(*this)[storage(t)].next_use; }

    // From track_changes() on, every tensor whose state may have changed (written through
    // operator[] or the methods above, or touched) is listed once until take_changed():
    // the engine's eviction index re-reads only those (sim/engine/eviction_index.h).
    void track_changes() {
        tracking_ = true;
        changed_flag_.assign(state_.size(), 0);
    }
    void touch(TensorId t) {
        if (tracking_ && !changed_flag_[static_cast<std::size_t>(t)]) {
            changed_flag_[static_cast<std::size_t>(t)] = 1;
            changed_.push_back(t);
        }
    }
    std::vector<TensorId> take_changed() {
        for (TensorId t : changed_) changed_flag_[static_cast<std::size_t>(t)] = 0;
        return std::exchange(changed_, {});
    }

    // Uses are counted per storage: ask about a storage (a view has none of its own).
    [[nodiscard]] bool has_future_use(TensorId t) const { return state_[t].next_use < use_count(t); }
    [[nodiscard]] std::optional<int> next_use_op(TensorId t) const;
    // Compute time until the tensor's next use, from the start of op `op`.
    [[nodiscard]] double ms_until_next_use(TensorId t, int op) const;
    // Predicted compute time from the start of op `from` to the start of op `to`.
    [[nodiscard]] double compute_between(int from, int to) const;

private:
    const Workload& w_;
    const ExecPlan& plan_;
    double speed_;
    std::vector<TensorState> state_;
    // The plan steps that read each tensor, in one array: tensor t's are
    // use_steps_[use_begin_[t] .. use_begin_[t + 1]) (no vector per tensor to allocate).
    using UseIndex = std::uint32_t;
    std::vector<UseIndex> use_begin_;
    std::vector<UseIndex> use_steps_;
    [[nodiscard]] std::size_t use_count(TensorId t) const { return use_begin_[t + 1] - use_begin_[t]; }
    [[nodiscard]] std::size_t use_step(TensorId t, std::size_t k) const { return use_steps_[use_begin_[t] + k]; }
    std::uint64_t insert_counter_ = 0;
    mutable int sums_from_ = -1;           // compute_between's running sums from this op
    mutable std::vector<double> sums_;     // sums_[j]: ops from .. from + j - 1
    EvictableOrder order_;
    std::vector<TensorId> storage_of_;
    bool tracking_ = false;
    std::vector<char> changed_flag_;
    std::vector<TensorId> changed_;
};

}  // namespace memsim
