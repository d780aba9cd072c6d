// The GPU stream's steps under the published DTR runtime's rules (policy.semantics: dtr;
// docs/recompute.md, "DTR semantics"), which work on storages through the StorageBook.
#include <algorithm>

#include "sim/engine/gpu_stream.h"

namespace memsim {

// From its request on, an op's outputs exist: each output storage's cost gains the op's
// cost, and a fresh output storage not computed yet counts as evicted (it is a graph
// neighbour of the inputs being locked and rematerialized).
void GpuStream::request_outputs(int op) {
    rules_.storages->request(op);
    for (TensorId u : w_.ops[op].outputs) tensors_.touch(rules_.storages->storage(u));  // its cost changed
    for (TensorId u : w_.ops[op].outputs)
        if (w_.tensors[u].alias_of < 0 && tensors_[u].where == Where::Absent) tensors_[u].where = Where::Evicted;
}

// Every input's storage is stamped at request time; defined inputs are locked first,
// then the undefined ones are rematerialized one by one (an earlier one may bring a
// later one back) and locked. Locks are the storage's.
void GpuStream::lock_inputs_by_storage(const Op& op, int for_op, int depth) {
    for (TensorId t : op.inputs) tensors_.stamp_access(t, clock_.op_clock_ms());
    for (TensorId t : op.inputs) io_.swap_in_now(t, for_op);
    std::vector<TensorId> missing;
    for (TensorId t : op.inputs) {
        if (tensors_[t].where == Where::Resident) tensors_.lock(t);
        else missing.push_back(t);
    }
    for (TensorId t : missing) {
        ensure_resident(t, for_op, depth);
        tensors_.lock(t);
    }
}

std::uint64_t GpuStream::fresh_output_bytes(const Op& op) const {
    std::uint64_t total = 0;
    for (TensorId u : op.outputs)
        if (w_.tensors[u].alias_of < 0) total += w_.tensors[u].bytes;
    return total;
}

// The order in which (re)computed outputs enter the evictable pool: the requested one
// (`last`; the first output for a top-level op) after its siblings.
std::vector<TensorId> GpuStream::evictable_order(const std::vector<TensorId>& outputs, TensorId last) {
    std::vector<TensorId> order;
    for (TensorId u : outputs)
        if (u != last) order.push_back(u);
    if (std::find(outputs.begin(), outputs.end(), last) != outputs.end()) order.push_back(last);
    return order;
}

// End of the log: every tensor still referenced is requested once more, in the loader's
// order (Workload::end_of_log_requests, one entry per name), rematerialized if undefined
// (a recomputation like any other) and pinned; a later entry of a pinned storage is a no-op.
void GpuStream::request_final_outputs() {
    const int last_op = static_cast<int>(w_.ops.size()) - 1;
    std::vector<char> pinned(w_.tensors.size(), 0);
    for (TensorId t : rules_.storages->final_requests()) {
        if (tensors_[t].where != Where::Resident) ensure_resident(t, last_op);
        const TensorId s = tensors_.storage(t);
        if (!pinned[s]) {
            tensors_.lock(t);
            pinned[s] = 1;
        }
    }
}

}  // namespace memsim
