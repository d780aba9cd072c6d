#include "sim/engine/storage_book.h"

#include <algorithm>

namespace memsim {

StorageBook::StorageBook(const Workload& w)
    : w_(w), storage_of_(storage_map(w)), views_(w.tensors.size()), cost_ms_(w.tensors.size(), 0.0),
      cost_ops_(w.tensors.size()) {
    for (TensorId t = 0; t < static_cast<TensorId>(w.tensors.size()); ++t)
        if (storage_of_[t] != t) views_[storage_of_[t]].push_back(t);
    final_requests_ = end_of_iteration_requests(w);
}

void StorageBook::request(int op) {
    for (TensorId u : w_.ops[op].outputs) {
        const TensorId s = storage_of_[u];
        std::vector<int>& ops = cost_ops_[s];
        if (std::find(ops.begin(), ops.end(), op) != ops.end()) continue;
        ops.push_back(op);
        cost_ms_[s] += w_.ops[op].cost_ms;
    }
}

}  // namespace memsim
