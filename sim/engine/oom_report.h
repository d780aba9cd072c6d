// Why a run is out of memory, in one message: what was asked, the budget, and the
// largest resident tensors that could not be evicted, each with its reason.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "models/alloc/allocator.h"
#include "sim/engine/tensor_state.h"

namespace memsim {

std::string oom_message(const Workload& w, const TensorTable& tensors, const Allocator& allocator, std::uint64_t budget,
                        std::uint64_t bytes, int op, const std::function<bool(TensorId)>& evictable, bool has_eviction_policy);

}  // namespace memsim
