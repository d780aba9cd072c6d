// `greedy_by_breadth` (docs/planners.md): operators by decreasing breadth (total size alive
// there; ties: lower operator index first); inside one, its unassigned tensors by
// decreasing size (ties: lower record index); each takes the best-fitting object whose
// tenants do not intersect it (smallest >= size, else largest smaller; ties: lowest
// object id), else a new object.
#pragma once

#include "models/plan/plan_types.h"

namespace memsim::plan {

ObjectAssignment greedy_by_breadth(const std::vector<UsageRecord>& records);

}  // namespace memsim::plan
