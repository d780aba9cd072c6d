// `naive`: one object per tensor (docs/planners.md). The upper bound of every planner.
#pragma once

#include "models/plan/plan_types.h"

namespace memsim::plan {

ObjectAssignment naive(const std::vector<UsageRecord>& records);

}  // namespace memsim::plan
