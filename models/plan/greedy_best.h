// `greedy_best` (docs/planners.md): greedy_by_size and greedy_by_breadth; breadth's answer
// is kept only when strictly smaller.
#pragma once

#include "models/plan/plan_types.h"

namespace memsim::plan {

ObjectAssignment greedy_best(const std::vector<UsageRecord>& records);

}  // namespace memsim::plan
