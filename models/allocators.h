// The allocator registry (`policy.allocator`): os, pool, torch_caching and every static planner as
// "planner:<strategy>". It sits above models/alloc/ and models/plan/ because it
// registers both; neither of them depends on it.
#pragma once

#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "models/alloc/allocator.h"
#include "models/policy_table.h"

namespace memsim {

struct AllocatorFlags {
    // Places every tensor before the run (a static planner): the offset strategies search
    // every placed tensor for each new one, quadratic in tensors, so what is not asked for
    // by name (`memsim info`'s table of every allocator) skips them above a size.
    bool plans_ahead = false;
    // Its footprint is exactly the live bytes (every tensor its own block): what the
    // planners and the memory floor count.
    bool footprint_is_live_bytes = false;
    // Models segments and blocks as PyTorch's caching allocator does: what a
    // memory_snapshot.pickle shows (output.torch_snapshot).
    bool models_segments = false;
    // The parameter that holds the allocator's configuration text, in the syntax its users
    // already write (PYTORCH_CUDA_ALLOC_CONF); "": none.
    std::string_view config_param = {};
};

// Whether the allocator named (a row's name) has footprint_is_live_bytes.
bool footprint_is_live_bytes(std::string_view allocator);
// The rows that model segments (AllocatorFlags::models_segments), by name, for messages.
std::vector<std::string> segment_allocator_names();

using AllocatorRow = PolicyRow<std::function<std::unique_ptr<Allocator>(const PolicyParams&)>, AllocatorFlags>;
// os, pool, torch_caching, then one row per static planner strategy, in the planners' table order (a
// planner's row takes the parameters of its strategy's row).
std::span<const AllocatorRow> allocator_table();

// Names accepted by policy.allocator ("os", "pool", "torch_caching", "planner:<strategy>").
std::vector<std::string> allocator_names();
// The allocator with the `given` parameters (its row's defaults for the rest). Throws
// std::invalid_argument naming the unknown allocator, the valid ones and the closest, or
// a parameter its row does not take.
std::unique_ptr<Allocator> make_allocator(const std::string& name, const ParamValues& given = {});

}  // namespace memsim
