// A plain, time-free replay of a workload's memory events (in the order of
// docs/semantics.md)
// through an allocator: the static answer to "what peak does this allocator need?"
// used by `memsim info` and the planners' comparison table. `memsim run` gets its
// peaks from the SimGrid engine instead; tests check that both agree.
#pragma once

#include <cstdint>

#include "models/alloc/allocator.h"
#include "models/workload/dtr_log.h"
#include "models/workload/workload.h"

namespace memsim {

// Runs every op's events; frees what is still allocated at the end. Returns the
// allocator's peak footprint.
std::uint64_t replay_peak(const Workload& w, Allocator& allocator);

// The published DTR simulator's baseline (no budget): peak live bytes with every constant
// allocated when it appears and every storage freed when its last reference goes
// (= replay_peak under the os allocator).
std::uint64_t dtr_log_baseline_peak(const DtrLog& log);

}  // namespace memsim
