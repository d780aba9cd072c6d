// Which resident tensor goes to disk when an allocation does not fit the budget and no
// recompute heuristic chooses (the budget-driven swap selections). The engine owns the
// state and the eviction loop; a rule only picks, through a read-only view.
#pragma once

#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "models/policy_table.h"
#include "models/workload/workload.h"

namespace memsim {

// What a victim rule may look at; implemented by the engine's memory manager.
class VictimView {
public:
    virtual ~VictimView() = default;
    [[nodiscard]] virtual const Workload& workload() const = 0;
    // Compute time from the start of op `op` until the tensor's next use (to the end of
    // the iteration when it has none).
    [[nodiscard]] virtual double ms_until_next_use(TensorId t, int op) const = 0;
    [[nodiscard]] virtual std::optional<int> next_use_op(TensorId t) const = 0;  // none: no use left
};

class VictimRule {
public:
    virtual ~VictimRule() = default;
    // The tensor to swap out among `candidates` (non-empty, evictable, insertion order).
    virtual TensorId choose(const VictimView& view, const std::vector<TensorId>& candidates, int op) = 0;
};

using VictimRow = PolicyRow<std::unique_ptr<VictimRule> (*)()>;

std::span<const VictimRow> victim_rules();
// Throws std::invalid_argument for an unknown name (a bug: selections name their rule).
std::unique_ptr<VictimRule> make_victim_rule(std::string_view name);

}  // namespace memsim
