#include "sim/app/run/working_set.h"

#include <algorithm>
#include <vector>

namespace memsim {

namespace {

TensorId storage_of(const Workload& w, TensorId t) {
    // Alias chains are short and acyclic (the loaders check them); the bound keeps a
    // workload built in code from looping.
    for (std::size_t hops = 0; w.tensors[t].alias_of >= 0 && hops < w.tensors.size(); ++hops) t = w.tensors[t].alias_of;
    return t;
}

}  // namespace

std::uint64_t op_working_set_bytes(const Workload& w, int op) {
    const Op& o = w.ops[op];
    std::vector<TensorId> storages;
    for (TensorId t : o.inputs) storages.push_back(storage_of(w, t));
    for (TensorId t : o.outputs) storages.push_back(storage_of(w, t));
    for (const ScratchEvent& e : o.scratch)
        if (e.alloc) storages.push_back(storage_of(w, e.tensor));
    std::sort(storages.begin(), storages.end());
    storages.erase(std::unique(storages.begin(), storages.end()), storages.end());
    std::uint64_t bytes = 0;
    for (TensorId t : storages) bytes += w.tensors[t].bytes;
    return bytes;
}

OpWorkingSet largest_working_set(const Workload& w) {
    OpWorkingSet largest;
    for (int i = 0; i < static_cast<int>(w.ops.size()); ++i) {
        const std::uint64_t bytes = op_working_set_bytes(w, i);
        if (largest.op < 0 || bytes > largest.bytes) largest = {i, bytes};
    }
    return largest;
}

}  // namespace memsim
