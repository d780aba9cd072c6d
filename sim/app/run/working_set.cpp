#include "sim/app/run/working_set.h"

#include <algorithm>
#include <vector>

namespace memsim {

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
