// PyTorch's memory snapshot (torch.cuda.memory._snapshot(), pickled by _dump_snapshot):
// the segments held when it was taken, and each device's trace of allocator events.
// memsim writes it (output.torch_snapshot) and reads it (workload: {torch_snapshot: FILE});
// the fields are listed in docs/outputs.md. Reading is strict: a field that is not one of
// the known fields of the PyTorch versions documented there is an error naming it.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace memsim {

struct SnapshotFrame {
    std::string filename;
    std::int64_t line = 0;
    std::string name;
};

// A call stack, held once however many blocks and trace entries refer to it: PyTorch's
// snapshots refer to one stack from many places (the pickle's memo), and a copy per
// reference would make memory grow with the references, not with the file. Null: none.
using SnapshotStack = std::shared_ptr<const std::vector<SnapshotFrame>>;

struct SnapshotBlock {
    std::uint64_t address = 0;
    std::uint64_t size = 0;
    std::uint64_t requested_size = 0;
    std::string state;  // active_allocated, active_pending_free, inactive
    SnapshotStack frames;
};

struct SnapshotSegment {
    std::int64_t device = 0;
    std::uint64_t address = 0;
    std::uint64_t total_size = 0;
    std::uint64_t allocated_size = 0;
    std::uint64_t active_size = 0;
    std::uint64_t requested_size = 0;
    std::int64_t stream = 0;
    std::string segment_type;  // large, small
    bool is_expandable = false;
    SnapshotStack frames;
    std::vector<SnapshotBlock> blocks;
};

struct SnapshotTraceEntry {
    std::string action;  // alloc, free_requested, free_completed, segment_alloc, segment_free, segment_map, segment_unmap, snapshot, oom
    std::uint64_t addr = 0;  // oom: device_free
    std::uint64_t size = 0;
    std::int64_t stream = 0;
    std::optional<std::int64_t> time_us;  // absent in torch 1.13's traces
    SnapshotStack frames;
};

struct MemorySnapshot {
    std::vector<SnapshotSegment> segments;
    std::vector<std::vector<SnapshotTraceEntry>> device_traces;  // one list per device
    std::optional<std::string> alloc_conf;  // allocator_settings.PYTORCH_CUDA_ALLOC_CONF, when recorded
    // Written only: the options as numbers (allocator_settings).
    std::uint64_t max_split_size = 0;
    double garbage_collection_threshold = 0.0;
    bool expandable_segments = false;
};

// The pickle (protocol 2) of `s` in _snapshot()'s layout.
std::string write_memory_snapshot(const MemorySnapshot& s);

// Reads and checks a snapshot pickle. Throws InputError "PATH: WHERE: problem" for a file
// that is not a pickle, is truncated, holds anything but plain data, or is not a snapshot
// (a missing field, a wrong type, an unknown field, an unknown action).
MemorySnapshot read_memory_snapshot(const std::string& path);
// The same from bytes already read (`what` names them in errors).
MemorySnapshot parse_memory_snapshot(std::string_view bytes, const std::string& what);

}  // namespace memsim
