#include "models/alloc/replay.h"

#include <vector>

#include "models/alloc/os_allocator.h"

namespace memsim {

std::uint64_t replay_peak(const Workload& w, Allocator& allocator) {
    allocator.prepare(w);
    std::vector<char> live(w.tensors.size(), 0);
    auto alloc = [&](TensorId t) {
        if (w.tensors[t].alias_of >= 0) return;
        allocator.allocate(t, w.tensors[t].bytes);
        live[t] = 1;
    };
    auto release = [&](TensorId t) {
        if (!live[t]) return;
        allocator.release(t);
        live[t] = 0;
    };
    for (TensorId t : w.initial_tensors()) alloc(t);
    for (const Op& op : w.ops) {
        for (TensorId t : op.arrivals) alloc(t);
        for (TensorId t : op.outputs) alloc(t);
        for (const ScratchEvent& e : op.scratch)
            if (e.alloc) alloc(e.tensor);
        for (const ScratchEvent& e : op.scratch)
            if (!e.alloc) release(e.tensor);
        for (TensorId t : op.release) release(t);
    }
    for (TensorId t = 0; t < static_cast<TensorId>(w.tensors.size()); ++t) release(t);
    return allocator.peak_bytes();
}

std::uint64_t dtr_log_baseline_peak(const DtrLog& log) {
    // Constants arrive at their CONSTANT line (Op::arrivals) and every storage is released
    // with its last reference: the plain replay is the published baseline.
    OsAllocator os;
    return replay_peak(log.workload, os);
}

}  // namespace memsim
