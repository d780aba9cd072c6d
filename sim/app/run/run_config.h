// From a scenario to what the engine runs (its EngineConfig, sim/engine/engine_config.h):
// the policy validated, the budget resolved (platform.memory.budget_ratio -> bytes) and
// every policy name turned into its factory. The scenario is not modified.
#pragma once

#include <cstdint>

#include "models/workload/workload.h"
#include "sim/engine/engine_config.h"
#include "sim/scenario/scenario.h"

namespace memsim {

// What platform.memory.budget_ratio is a fraction of: the workload's live-bytes peak
// with no policy (the os allocator's), the same bytes whatever the scenario's allocator.
std::uint64_t budget_base_bytes(const Workload& w);

// platform.memory.budget, else floor(ratio x budget_base_bytes), else none.
std::optional<std::uint64_t> resolved_budget(const Scenario& s, const Workload& w);

// Throws InputError for a policy that does not fit together (validate_policy), and for
// a budget below the largest operator's working set (sim/app/run/working_set.h) unless the
// semantics are dtr, whose published runtime answers OOM there.
// The workload one data-parallel rank runs (policy.data_parallel, docs/parallel.md: its
// shards of the model state and the step), none without the key. The engine shards the
// same way, with the same tensor and op ids, so a plan or a memory floor worked out on it
// is about what each GPU holds.
std::optional<Workload> rank_workload(const Scenario& s, const Workload& w);

EngineConfig resolve_engine_config(const Scenario& s, const Workload& w);

}  // namespace memsim
