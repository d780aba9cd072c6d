// Static planners used as allocators by `memsim run` (policy.allocator: planner:<strategy>).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "models/alloc/allocator.h"

namespace memsim {

std::vector<std::string> planner_strategy_names();
// Throws std::invalid_argument for an unknown strategy.
std::unique_ptr<Allocator> make_planner_allocator(const std::string& strategy);

}  // namespace memsim
