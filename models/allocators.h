// The allocator registry (`policy.allocator`): os, pool, torch_caching, and every static planner as
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

// What a scenario can say about an allocator beyond its name.
struct AllocatorParams {
    std::string torch_alloc_conf;  // policy.torch_alloc_conf (torch_caching), PYTORCH_CUDA_ALLOC_CONF syntax
};

using AllocatorRow = PolicyRow<std::function<std::unique_ptr<Allocator>(const AllocatorParams&)>>;
// os, pool, torch_caching, then one row per static planner strategy, in the planners' table order.
std::span<const AllocatorRow> allocator_table();

// Names accepted by policy.allocator ("os", "pool", "torch_caching", "planner:<strategy>").
std::vector<std::string> allocator_names();
// Throws std::invalid_argument naming the unknown allocator, the valid ones and the closest
// (or, from torch_caching, the bad option of params.torch_alloc_conf).
std::unique_ptr<Allocator> make_allocator(const std::string& name, const AllocatorParams& params = {});

}  // namespace memsim
