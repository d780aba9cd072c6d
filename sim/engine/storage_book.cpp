#include "sim/engine/storage_book.h"

#include <algorithm>
#include <string>

namespace memsim {

StorageBook::StorageBook(const Workload& w)
    : w_(w), storage_of_(w.tensors.size()), views_(w.tensors.size()), cost_ms_(w.tensors.size(), 0.0),
      cost_ops_(w.tensors.size()) {
    for (TensorId t = 0; t < static_cast<TensorId>(w.tensors.size()); ++t) {
        TensorId root = t;
        while (w.tensors[root].alias_of >= 0) root = w.tensors[root].alias_of;
        storage_of_[t] = root;
        if (root != t) views_[root].push_back(t);
    }
    // Where each tensor's name first appears: its own creation, or for a MUTATE's new
    // version the place of the input it replaced.
    const auto n = static_cast<TensorId>(w.tensors.size());
    std::vector<TensorId> place(w.tensors.size());
    std::vector<char> released(w.tensors.size(), 0);
    for (TensorId t = 0; t < n; ++t) place[t] = t;
    for (const Op& op : w.ops) {
        for (TensorId t : op.release) released[t] = 1;
        for (TensorId out : op.outputs) {
            const std::string& name = w.tensors[out].name;
            if (name.empty() || name.back() != '$') continue;
            const std::string replaced = name.substr(0, name.size() - 1);
            for (TensorId in : op.inputs)
                if (w.tensors[in].name == replaced) place[out] = place[in];
        }
    }
    for (TensorId t = 0; t < n; ++t)
        if (!released[t] && !w.tensors[t].scratch) final_requests_.push_back(t);
    std::stable_sort(final_requests_.begin(), final_requests_.end(), [&](TensorId a, TensorId b) { return place[a] < place[b]; });
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
