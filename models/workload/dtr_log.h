// Loader of the DTR prototype's operator logs (docs/workloads.md, DTR operator logs): one JSON object
// per line. Mapping onto Workload (docs/recompute.md, "DTR logs"):
//  - CONSTANT + MEMORY: a constant tensor (no producer), resident from just before the
//    next op (Op::arrivals; from the start when declared before the first op);
//  - CALL: one op, cost TIME/1e6 ms; each result a tensor; a result with ALIAS >= 0
//    shares the storage of that argument (alias_of = the argument's storage tensor)
//    and takes no memory;
//  - MUTATE: one op reading all ARGS and producing a new version of each mutated
//    argument (fresh storage of the argument's storage size); the name now refers to
//    the new version and the old version loses a reference;
//  - COPY / COPY_FROM / RELEASE: reference counting on the named tensor;
//  - a storage whose last reference (over all tensors sharing it) is dropped goes into
//    the `release` list of the last op emitted before that point; an alias tensor goes
//    into a release list when its own last reference goes (a no-op for memory);
//    a constant dropped before any op after its arrival is released after the next op;
//  - end_of_log_requests: every name ever bound, in first-binding order, whose last
//    binding is still referenced at the end (a RELEASEd name still naming its tensor);
//  - forward_end: the op index at the BACKWARD annotation (else the first op whose
//    name contains "backward", else the op count).
// Optional keys memsim's tracer writes (the published DTR simulator ignores them; a log
// without them loads as before; docs/workloads.md, "Optional keys"):
//  - CONSTANT: "ROLE" (tensor_role.h names: parameter, optimizer_state, input, ...);
//  - CALL: "ROLES" (one role name per RESULTS entry), "RECOMPUTES" (the index, among
//    the log's CALL and MUTATE lines, of the forward op this call re-runs:
//    torch.utils.checkpoint's re-run forward);
//  - CALL and MUTATE: "FLOPS", "BYTES" (read plus written), "DTYPE" (PyTorch's name);
//  - ANNOTATE "MICRO_BATCH": a new micro-batch starts with the next op (each has its
//    own BACKWARD annotation).
// Every malformed line is an InputError naming the file, the line and the value.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "models/workload/workload.h"

namespace memsim {

Workload load_dtr_log(const std::string& path);

// constant_arrival[t] = the op index before which constant t appears (-1 for tensors
// that are not constants; the op count for one declared after the last op). The
// workload carries it as Op::arrivals.
// The end-of-log requests (the published runtime's name order) are in
// workload.end_of_log_requests.
struct DtrLog {
    Workload workload;
    std::vector<int> constant_arrival;
};
DtrLog load_dtr_log_detailed(const std::string& path);

// Its baseline peak (no budget): dtr_log_baseline_peak in models/alloc/replay.h.

}  // namespace memsim
