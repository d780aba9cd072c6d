// The resident tensors in the order they last became evictable (allocation or last
// unlock): what an eviction scans, oldest first. A stamp always takes the newest
// sequence number, so keeping the order is moving the tensor to the back of an
// intrusive doubly linked list: O(1) per allocation, unlock and free, where sorting
// every resident tensor at each eviction made budgeted runs superlinear.
#pragma once

#include <vector>

#include "models/workload/workload.h"

namespace memsim {

class EvictableOrder {
public:
    static constexpr TensorId kEnd = -1;

    // Empty until sized: a run that never evicts keeps no order (TensorTable::keep_evictable_order).
    EvictableOrder() = default;
    explicit EvictableOrder(std::size_t tensors) : prev_(tensors, kOut), next_(tensors, kOut) {}

    [[nodiscard]] bool kept() const { return !next_.empty(); }
    [[nodiscard]] bool contains(TensorId t) const { return static_cast<std::size_t>(t) < next_.size() && next_[t] != kOut; }
    [[nodiscard]] TensorId front() const { return head_; }
    [[nodiscard]] TensorId next(TensorId t) const { return next_[t]; }

    // Appends `t`, or moves it to the back if it is already listed.
    void push_back(TensorId t) {
        if (contains(t)) erase(t);
        prev_[t] = tail_;
        next_[t] = kEnd;
        (tail_ == kEnd ? head_ : next_[tail_]) = t;
        tail_ = t;
    }
    void erase(TensorId t) {
        if (!contains(t)) return;
        (prev_[t] == kEnd ? head_ : next_[prev_[t]]) = next_[t];
        (next_[t] == kEnd ? tail_ : prev_[next_[t]]) = prev_[t];
        prev_[t] = next_[t] = kOut;
    }

private:
    static constexpr TensorId kOut = -2;  // not listed
    std::vector<TensorId> prev_, next_;
    TensorId head_ = kEnd, tail_ = kEnd;
};

}  // namespace memsim
