// The dead tensors a regeneration brought back during one operator, oldest first: what
// memory pressure drops before the heuristic evicts anything still needed. A tensor is
// listed once, from the first time it served a recomputation until it is dropped or the
// operator ends: a deep cascade uses the same few hundred tensors thousands of times,
// and listing each use made every eviction scan thousands of entries.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "sim/engine/evictable_order.h"

namespace memsim {

class RegeneratedQueue {
public:
    static constexpr TensorId kNoTensor = EvictableOrder::kEnd;

    explicit RegeneratedQueue(std::size_t tensors) : tensor_count_(tensors) {}

    void push(TensorId t) {
        if (!order_) order_ = std::make_unique<EvictableOrder>(tensor_count_);  // runs that never regenerate pay nothing
        if (!order_->contains(t)) order_->push_back(t);
    }

    // Removes and returns the oldest listed tensor that `qualifies`; kNoTensor if none.
    template <class Qualifies>
    TensorId take_first(Qualifies qualifies) {
        if (!order_) return kNoTensor;
        for (TensorId t = order_->front(); t != EvictableOrder::kEnd; t = order_->next(t))
            if (qualifies(t)) {
                order_->erase(t);
                return t;
            }
        return kNoTensor;
    }

    // Every listed tensor, oldest first, and the queue emptied.
    std::vector<TensorId> take_all() {
        std::vector<TensorId> tensors;
        if (!order_) return tensors;
        for (TensorId t = order_->front(); t != EvictableOrder::kEnd; t = order_->next(t)) tensors.push_back(t);
        for (const TensorId t : tensors) order_->erase(t);
        return tensors;
    }

private:
    std::size_t tensor_count_;
    std::unique_ptr<EvictableOrder> order_;
};

}  // namespace memsim
