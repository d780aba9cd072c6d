// workload: {torch_snapshot: FILE}: a PyTorch memory snapshot recorded with history
// (torch.cuda.memory._record_memory_history, _dump_snapshot) as the allocation and free
// sequence of its device trace, to replay through any allocator (docs/workloads.md,
// "PyTorch memory snapshots"), with what the recorded run's own allocator did.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "models/io/memory_snapshot.h"
#include "models/workload/workload.h"

namespace memsim {

struct RecordedAllocator {
    std::int64_t device = 0;
    std::size_t trace_entries = 0;
    std::size_t streams = 0;                // distinct streams of the allocations (replayed as one)
    std::uint64_t reserved_at_start = 0;    // segments already held when the trace began
    std::uint64_t reserved_peak_bytes = 0;  // from the segment events
    std::uint64_t requested_peak_bytes = 0; // from alloc / free_completed: the live bytes
    std::uint64_t live_at_start = 0;        // tensors allocated before the trace began
    std::size_t ooms = 0;
    std::optional<std::string> alloc_conf;  // the run's PYTORCH_CUDA_ALLOC_CONF, when the snapshot says
    // The segment events in order: segment_alloc / segment_free / segment_map / segment_unmap and bytes.
    std::vector<std::pair<std::string, std::uint64_t>> segment_events;
};

struct SnapshotWorkload {
    Workload workload;
    RecordedAllocator recorded;
};

// Each allocation is an operator whose output is the allocated tensor; each completed
// free releases its tensor after the operator of the allocation before it. Throws
// InputError naming the file and the trace entry.
SnapshotWorkload snapshot_workload(const MemorySnapshot& s, const std::string& path);
SnapshotWorkload load_torch_snapshot(const std::string& path);

}  // namespace memsim
