// Whose rules a run follows (policy.semantics): memsim's own, the reference swap
// simulator's, or the published DTR runtime's. Each is a set of engine behaviours,
// found from the table below.
#pragma once

#include <memory>
#include <span>

#include "models/policy_table.h"
#include "models/swap/prefetch/prefetch_rule.h"

namespace memsim {

struct Semantics {
    // The published DTR runtime: the policies' clock counts operator time only; a
    // released tensor is freed at once but stays recomputable; a tensor recomputed after
    // its release stays an ordinary evictable tensor; inputs are stamped when locked.
    bool dtr_runtime = false;
    // The reference swap simulator: finished writes are freed at the swap mode's sync
    // points, pending writes at the end of the forward pass (async), and reads are
    // issued by its own rule (read_issue_rule).
    bool reference_io = false;
    std::unique_ptr<PrefetchRule> (*read_issue_rule)() = nullptr;  // nullptr: the scenario's prefetch rule
};

using SemanticsRow = PolicyRow<Semantics (*)()>;

std::span<const SemanticsRow> semantics_table();

}  // namespace memsim
