// The published DTR runtime's per-storage bookkeeping (policy.semantics: dtr;
// docs/recompute.md, "DTR semantics"). That runtime works on storages, the root of an
// alias chain: locks, the last-access stamp and the evictable-pool position belong to the
// storage (TensorTable resolves them through storage()); a storage's cost is the sum of
// the costs of the distinct ops that have so far created a tensor in it (its producer
// plus the view ops requested since), so it grows when a later op creates a view.
#pragma once

#include <vector>

#include "models/workload/workload.h"

namespace memsim {

class StorageBook {
public:
    explicit StorageBook(const Workload& w);

    [[nodiscard]] TensorId storage(TensorId t) const { return storage_of_[t]; }
    // The alias views living in storage s (s itself excluded).
    [[nodiscard]] const std::vector<TensorId>& views(TensorId s) const { return views_[s]; }
    // Op `op` is requested: each output storage's cost gains the op's cost (once per op).
    void request(int op);
    [[nodiscard]] double cost_ms(TensorId s) const { return cost_ms_[s]; }
    // What is requested once more after the last op, in order: end_of_iteration_requests
    // (a DTR log's own list, exactly as its loader recorded it).
    [[nodiscard]] const std::vector<TensorId>& final_requests() const { return final_requests_; }

private:
    const Workload& w_;
    std::vector<TensorId> storage_of_;
    std::vector<std::vector<TensorId>> views_;
    std::vector<double> cost_ms_;
    std::vector<std::vector<int>> cost_ops_;  // per storage: the ops counted in cost_ms_
    std::vector<TensorId> final_requests_;
};

}  // namespace memsim
