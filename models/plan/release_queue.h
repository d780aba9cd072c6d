// Objects in use, released in order of their tenant's last_op: the bookkeeping shared
// by the in-order planners (equality, greedy_in_order, mxnet). An object is free for
// record i once its last tenant has last_op < first_op(i).
#pragma once

#include <cstddef>
#include <functional>
#include <queue>
#include <utility>
#include <vector>

namespace memsim::plan {

class ReleaseQueue {
public:
    void hold(int last_op, std::size_t object) { in_use_.emplace(last_op, object); }
    // Calls on_free(object) for each object whose tenant ends before `op`, by increasing
    // last_op, ties by lower object id (so "most recently freed" is well defined).
    template <typename OnFree>
    void release_before(int op, OnFree on_free) {
        while (!in_use_.empty() && in_use_.top().first < op) {
            on_free(in_use_.top().second);
            in_use_.pop();
        }
    }

private:
    using Entry = std::pair<int, std::size_t>;  // (last_op, object)
    std::priority_queue<Entry, std::vector<Entry>, std::greater<>> in_use_;
};

}  // namespace memsim::plan
