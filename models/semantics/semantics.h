// Whose rules a run follows (policy.semantics): memsim's own, the reference swap
// simulator's, or the published DTR runtime's, found from the table below. Each row
// names the engine's rules object for it (sim/engine/semantics_rules.h: the hooks the
// engine calls where the semantics differ) and says what the run layer and the policy
// checks must know before the run.
#pragma once

#include <memory>
#include <span>

#include "models/policy_table.h"
#include "models/swap/prefetch/prefetch_rule.h"

namespace memsim {

// The engine's rules objects, one per semantics (sim/engine/semantics_rules.h).
enum class EngineRules { Simulated, Reference, DtrRuntime };

struct Semantics {
    EngineRules rules = EngineRules::Simulated;
    // A budget below an operator's working set is run (and answers out of memory), as
    // the published DTR runtime does (its h_DTR table has OOM cells there); otherwise
    // the run layer refuses it before the run.
    bool runs_below_working_set = false;
    // Its swap rules are defined for the feature_maps selection only (the reference's).
    bool feature_maps_only = false;
    // Reads are issued by this rule instead of the scenario's prefetch rule (nullptr:
    // the scenario's).
    std::unique_ptr<PrefetchRule> (*read_issue_rule)() = nullptr;
};

using SemanticsRow = PolicyRow<Semantics (*)()>;

std::span<const SemanticsRow> semantics_table();

}  // namespace memsim
