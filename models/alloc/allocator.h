// How bytes become a peak: the allocator interface every model implements
// (os, pool, static planners). The memory manager calls allocate/release in
// simulation order; the allocator reports its own footprint.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "models/workload/workload.h"

namespace memsim {

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
};

// The registry (allocator_table, allocator_names, make_allocator) is models/allocators.h,
// above alloc/ and plan/.

}  // namespace memsim
