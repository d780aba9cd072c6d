// `objects_to_offsets` (docs/planners.md): the objects of an assignment laid end to end in
// id order, each starting at an address aligned up to `align`. Total = end of the last.
#pragma once

#include "models/plan/plan_types.h"

namespace memsim::plan {

OffsetAssignment objects_to_offsets(const ObjectAssignment& objects, std::uint64_t align = 1);

}  // namespace memsim::plan
