// What a loaded workload must satisfy before anything adds up its numbers: byte totals
// that fit (models/checked_math.h), a finite compute time the engine's clock can hold,
// and a size the machine can hold. Every loader calls check_workload_limits last.
#pragma once

#include <cstddef>
#include <string>

#include "models/workload/workload.h"

namespace memsim {

// One iteration's operator costs add up to at most this (about 11.6 days).
inline constexpr double kMaxComputeMs = 1e9;

// Throws InputError naming the workload's source and the tensor or operator that pushes
// the total tensor bytes past kMaxTotalBytes or the compute time past kMaxComputeMs.
void check_workload_limits(const Workload& w);

// Throws InputError when `ops` operators and `tensors` tensors would not fit in this
// machine's memory (a rough per-element cost of the workload and the engine's state);
// called before a generator builds them.
void check_workload_fits_memory(std::size_t ops, std::size_t tensors, const std::string& what);

}  // namespace memsim
