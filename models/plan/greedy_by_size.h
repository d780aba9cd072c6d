// `greedy_by_size` for objects (docs/planners.md). Positional maximums pm[k] = the largest
// k-th largest tensor alive at any operator; a tensor's position = the last k with
// pm[k] >= its size. Repeatedly place the unassigned tensor with the smallest position,
// then the smallest distance to a compatible object (gap between its interval and a
// tenant's), then the largest size, then the lowest index; it goes into that object
// (ties between objects at the same distance: lowest object id) or a new one.
#pragma once

#include "models/plan/plan_types.h"

namespace memsim::plan {

ObjectAssignment greedy_by_size_objects(const std::vector<UsageRecord>& records);

// pm[k] as defined above (exposed for tests).
std::vector<std::uint64_t> positional_maximums(const std::vector<UsageRecord>& records);

}  // namespace memsim::plan
