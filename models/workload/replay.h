// A plain, time-free replay of a workload's memory events (SPEC section 1 order)
// through an allocator: the static answer to "what peak does this allocator need?"
// used by `memsim info` and the planners' comparison table. `memsim run` gets its
// peaks from the SimGrid engine instead; tests check that both agree.
#pragma once

#include <cstdint>

#include "models/alloc/allocator.h"
#include "models/workload/workload.h"

namespace memsim {

// Runs every op's events; frees what is still allocated at the end. Returns the
// allocator's peak footprint.
std::uint64_t replay_peak(const Workload& w, Allocator& allocator);

}  // namespace memsim
