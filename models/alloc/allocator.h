// How bytes become a peak: the allocator interface every model implements
// (os, pool, static planners). The memory manager calls allocate/release in
// simulation order; the allocator reports its own footprint.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "models/workload/workload.h"

namespace memsim {

// What an allocator that models device segments (torch_caching) did, in PyTorch's
// memory-snapshot vocabulary: the outputs turn these into memory_snapshot.pickle.
struct AllocatorEvent {
    const char* action = "";  // alloc, free_requested, free_completed, segment_alloc, segment_free, segment_map, segment_unmap, oom
    TensorId tensor = -1;
    std::uint64_t address = 0;     // oom: bytes free on the device
    std::uint64_t size = 0;        // alloc / free: bytes requested; segment_*: segment bytes; oom: bytes requested
    std::uint64_t block_size = 0;  // alloc / free: the block's bytes (rounded, or larger when not split)
    bool small_pool = false;
    bool expandable = false;
};

// A caching allocator's own figures (summary.json: allocated_peak_bytes, ...).
struct CachingFigures {
    std::uint64_t allocated_peak_bytes = 0;  // blocks handed out (rounded sizes), PyTorch's max_memory_allocated
    std::uint64_t reserved_peak_bytes = 0;   // segments held, PyTorch's max_memory_reserved
    std::uint64_t fragmentation_bytes = 0;   // reserved - allocated when the reserved peak was first reached
    std::uint64_t segment_count = 0;         // segments held then
    std::uint64_t segment_allocations = 0;   // segments (or expandable mappings) taken from the device in the run
};

class Allocator {
public:
    virtual ~Allocator() = default;
    [[nodiscard]] virtual std::string name() const = 0;
    // Called once before the run with the whole workload (static planners need it).
    virtual void prepare(const Workload& /*workload*/) {}
    virtual void allocate(TensorId tensor, std::uint64_t bytes) = 0;
    virtual void release(TensorId tensor) = 0;
    // Bytes the allocator holds right now (for os: live bytes; for pool: bytes taken from the OS).
    [[nodiscard]] virtual std::uint64_t footprint_bytes() const = 0;
    // The allocator's peak footprint so far: what this allocator needs for the run.
    [[nodiscard]] virtual std::uint64_t peak_bytes() const = 0;
    // Footprint if `bytes` were allocated now (budget checks); must not change state.
    [[nodiscard]] virtual std::uint64_t footprint_if_allocated(std::uint64_t bytes) const = 0;
    // Free bytes adjacent to the tensor's block (fragmentation term of MegEngine's heuristic).
    [[nodiscard]] virtual std::uint64_t free_neighbour_bytes(TensorId /*tensor*/) const { return 0; }

    // The device's memory, for an allocator that behaves differently near it (torch_caching
    // frees its cache and retries); the engine passes the run's budget before the first
    // allocation. none: unlimited.
    virtual void set_capacity(std::optional<std::uint64_t> /*bytes*/) {}
    // Bytes in blocks handed out (torch_caching: rounded sizes); the others: the footprint.
    [[nodiscard]] virtual std::uint64_t allocated_bytes() const { return footprint_bytes(); }
    [[nodiscard]] virtual std::optional<CachingFigures> caching_figures() const { return std::nullopt; }
    // Appends what the allocator did since the last call to `out` and forgets it.
    virtual void take_events(std::vector<AllocatorEvent>& /*out*/) {}
    // The run is out of memory asking for `bytes`: do what the allocator does then (free
    // its cache) and return its own figures for the message ("" if it has none).
    virtual std::string out_of_memory(std::uint64_t /*bytes*/) { return {}; }
};

// The registry (allocator_table, allocator_names, make_allocator) is models/allocators.h,
// above alloc/ and plan/.

}  // namespace memsim
