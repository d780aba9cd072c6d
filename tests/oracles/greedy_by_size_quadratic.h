// The first implementation of greedy_by_size (models/plan/greedy_by_size.h), kept as the
// oracle of the faster one: it updates every unassigned record's distance to every object
// after each placement (quadratic in records, and in memory), which is easy to check
// against the definition. The planner must give exactly its object ids.
#pragma once

#include "models/plan/plan_types.h"

namespace memsim::test {

std::vector<std::uint64_t> quadratic_positional_maximums(const std::vector<UsageRecord>& records);
plan::ObjectAssignment quadratic_greedy_by_size_objects(const std::vector<UsageRecord>& records);

}  // namespace memsim::test
