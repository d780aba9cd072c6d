// `equality`: reuse only a free object of exactly the tensor's size, the most recently
// freed one; object sizes never change (docs/planners.md).
#pragma once

#include "models/plan/plan_types.h"

namespace memsim::plan {

ObjectAssignment equality(const std::vector<UsageRecord>& records);

}  // namespace memsim::plan
