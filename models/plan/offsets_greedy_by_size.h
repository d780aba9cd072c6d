// Offsets `greedy_by_size` (docs/planners.md): one arena; tensors by decreasing size
// (stable: ties keep record order); each goes into the smallest gap (ties: lowest
// address) between the already placed tensors whose intervals intersect its own, gap
// starts aligned up to `align` bytes; else right after the highest of them.
// Total = max end.
#pragma once

#include "models/plan/plan_types.h"

namespace memsim::plan {

OffsetAssignment greedy_by_size_offsets(const std::vector<UsageRecord>& records, std::uint64_t align = 1);

// The same placement for an explicit order (used by best_offsets' search).
OffsetAssignment place_in_order(const std::vector<UsageRecord>& records, const std::vector<std::size_t>& order,
                                std::uint64_t align = 1);

}  // namespace memsim::plan
