// A plain, single-threaded re-implementation of the published DTR simulator runtime
// (eager eviction of released tensors), driving any EvictionHeuristic. Not SimGrid: it
// is the test oracle for the engine's `policy.semantics: dtr` mode and the executable
// statement of its rules (docs/recompute.md, "DTR semantics"):
//  - the clock advances only by operator cost (recomputations included);
//  - an op first pins (locks) its defined inputs, then rematerializes its evicted
//    inputs one by one (recursively) and locks each; every input's last access is set
//    to the clock before any of that;
//  - if its outputs do not fit, the heuristic is asked once per eviction, over the
//    evictable pool, until they fit (empty pool: out of memory);
//  - the pool is ordered by the time a storage last became evictable: outputs are
//    appended after the compute, then the inputs when their last lock is released
//    (in input order) - so locking an input moves it to the end;
//  - a top-level op's outputs get last access = the clock after the compute; a
//    recomputed tensor keeps the last access its requester set;
//  - a tensor whose last reference is released is evicted at once (freed) but stays
//    recomputable; once recomputed it is an ordinary evictable tensor again;
//  - everything is per storage (the root of an alias chain); a storage's cost is the sum
//    of the distinct ops that created a tensor in it so far (grows with later views);
//  - views are defined on their own: evicting a storage undefines them, and an undefined
//    view re-runs its view op (a recomputation);
//  - an op's outputs exist from its request: not yet computed, they count as evicted;
//  - constants are resident from their CONSTANT line (room made first), never evicted;
//  - at the end, options.final_requests are rematerialized if undefined and pinned.
// Scratch tensors are not modelled (DTR logs and the synthetic workloads have none).
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "models/recompute/eviction_heuristic.h"
#include "models/workload/workload.h"

namespace memsim {

enum class RecomputeStatus { Ok, OutOfMemory, Thrash };

struct DtrRuntimeOptions {
    std::uint64_t budget_bytes = std::numeric_limits<std::uint64_t>::max();
    // Stop (Thrash) once the recomputation time exceeds this.
    double max_recompute_ms = std::numeric_limits<double>::infinity();
    // Requested once more at the end, rematerialized if undefined and pinned
    // (Workload::end_of_log_requests).
    std::vector<TensorId> final_requests;
};

struct DtrRuntimeResult {
    RecomputeStatus status = RecomputeStatus::Ok;
    int recomputed_ops = 0;
    int end_recomputed_ops = 0;  // those done for the end-of-log requests
    double recompute_ms = 0.0;
    double compute_ms = 0.0;   // first computations only
    double clock_ms = 0.0;     // compute + recompute (the clock starts at 0)
    int evictions = 0;         // heuristic evictions (eager frees of released tensors excluded)
    std::uint64_t peak_bytes = 0;
    std::string message;       // why it stopped, for OutOfMemory / Thrash
};

DtrRuntimeResult run_dtr_reference(const Workload& w, EvictionHeuristic& heuristic, const DtrRuntimeOptions& options);

}  // namespace memsim
