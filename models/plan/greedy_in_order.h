// `greedy_in_order` (docs/planners.md): records in order; among the free objects take the
// one wasting least, the smallest >= the tensor or the largest < it, whichever differs
// less (a tie goes to the larger); the object grows to fit. Among free objects of equal
// size the lowest id is taken.
#pragma once

#include "models/plan/plan_types.h"

namespace memsim::plan {

ObjectAssignment greedy_in_order(const std::vector<UsageRecord>& records);

}  // namespace memsim::plan
