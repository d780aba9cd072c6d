// The least memory a policy that keeps the constants on the GPU can run a workload in:
// what no eviction moves (constants: weights and inputs a DTR log declares, and every
// tensor without a producing operator, which nothing can recompute; only a swap by role
// moves them) from the operator it arrives at to the one that releases
// it, plus the working set of the operator running beside it (sim/app/run/working_set.h).
// A run that is out of memory says it (sim/app/run/run_warnings.h), so that a model whose
// weights alone fill most of the budget is not mistaken for a bad policy.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "models/workload/workload.h"

namespace memsim {

struct MemoryFloor {
    std::uint64_t pinned_bytes = 0;  // the most non-evictable bytes resident at once
    std::uint64_t floor_bytes = 0;   // the most memory some operator needs with them
    int op = -1;                     // that operator (-1: no operator)
};

// `moved`: roles whose constants the run's swap selection moves (a swap by role,
// models/swap/selection/role_selection.cpp); those are not pinned.
MemoryFloor memory_floor(const Workload& w, const std::vector<TensorRole>& moved = {});

// "constants (...) are 36% of the no-policy peak (...); no policy can go below ...":
// for a run that ran out of memory under `budget_bytes`, against the live-bytes peak
// with no policy; nothing when the workload has no such tensors.
// `allocator`: the run's (policy.allocator); the floor counts live bytes, as `os` does.
std::optional<std::string> memory_floor_note(const Workload& w, std::uint64_t no_policy_peak_bytes,
                                             std::optional<std::uint64_t> budget_bytes, const std::string& allocator = "os",
                                             const std::vector<TensorRole>& moved = {});

}  // namespace memsim
