// The allocator registry (`policy.allocator`): os, pool, and every static planner as
// "planner:<strategy>". It sits above models/alloc/ and models/plan/ because it
// registers both; neither of them depends on it.
#pragma once

#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "models/alloc/allocator.h"
#include "models/policy_table.h"

namespace memsim {

using AllocatorRow = PolicyRow<std::function<std::unique_ptr<Allocator>()>>;
// os, pool, then one row per static planner strategy, in the planners' table order.
std::span<const AllocatorRow> allocator_table();

// Names accepted by policy.allocator ("os", "pool", "planner:<strategy>").
std::vector<std::string> allocator_names();
// Throws std::invalid_argument naming the unknown allocator, the valid ones and the closest.
std::unique_ptr<Allocator> make_allocator(const std::string& name);

}  // namespace memsim
