// From a scenario to what the engine runs: the policy validated, the budget resolved
// (platform.memory.budget_ratio -> bytes) and every policy name turned into its factory.
// The scenario is not modified.
#pragma once

#include <cstdint>

#include "models/workload/workload.h"
#include "sim/engine/run_config.h"
#include "sim/scenario/scenario.h"

namespace memsim {

// platform.memory.budget, else floor(ratio x the workload's no-swap peak under the
// scenario's allocator), else none.
std::optional<std::uint64_t> resolved_budget(const Scenario& s, const Workload& w);

// Throws InputError for a policy that does not fit together (validate_policy).
RunConfig resolve_run_config(const Scenario& s, const Workload& w);

}  // namespace memsim
