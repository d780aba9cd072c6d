// Which tensors go to disk (policy.swap.select): a static plan of swap-outs and
// swap-ins, and, for the budget-driven selections, the rule that picks what else goes
// to disk when the budget forces an eviction at run time. One selection per file,
// found from the table below.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "models/platform/transfer_model.h"
#include "models/policy_table.h"
#include "models/swap/swap_plan.h"
#include "models/swap/victim/victim_rule.h"
#include "models/workload/workload.h"

namespace memsim {

// What a selection plans from besides the workload. Bandwidth-aware selections time a
// swap with the transfer model of the tier the tensor goes to: `disk` for every tensor,
// or on the node of docs/tiers.md `tier_of` (the placement rule's pick for a tensor of
// `bytes` whose next use is `ms_to_next_use` of compute after its swap-out, -1 never,
// with every tier empty: the plan does not know what others will hold then).
struct SelectionInputs {
    std::optional<std::uint64_t> budget;
    TransferModel disk{DiskSpec{}};
    double gpu_speed_scale = 1.0;
    std::function<TransferModel(std::uint64_t bytes, double ms_to_next_use)> tier_of;

    [[nodiscard]] TransferModel tier(std::uint64_t bytes, double ms_to_next_use) const {
        return tier_of ? tier_of(bytes, ms_to_next_use) : disk;
    }
};

// What a selection needs and does at run time, written in its row: the scenario checks
// read them from the table, and a selection built from its row answers them (for the
// engine).
struct SwapSelectionFlags {
    bool needs_budget = false;
    // The victim rule (models/swap/victim/) that picks run-time swap-outs when no
    // recompute heuristic does ("": none).
    std::string_view victim_rule;
    // Run-time evictions still go to disk when a recompute heuristic picks them.
    bool spills_heuristic_victims = false;
    // It may move parameters or gradients, which ZeRO-3 gathers, frees and reduce-scatters
    // itself (docs/parallel.md): refused with policy.data_parallel.zero 3.
    bool may_move_parameters = false;
};

class SwapSelection {
public:
    virtual ~SwapSelection() = default;
    [[nodiscard]] virtual SwapPlan plan(const Workload& w, const SelectionInputs& in) const = 0;
    [[nodiscard]] bool needs_budget() const { return flags_.needs_budget; }
    // The row's victim rule, built (nullptr: none).
    [[nodiscard]] std::unique_ptr<VictimRule> victim_rule() const;
    [[nodiscard]] bool spills_heuristic_victims() const { return flags_.spills_heuristic_victims; }
    // The roles whose tensors, constants included, this selection moves whatever their
    // kind (a swap by role); the others move only feature maps.
    [[nodiscard]] virtual std::vector<TensorRole> moved_roles() const { return {}; }

private:
    friend struct SwapSelectionBuilder;
    SwapSelectionFlags flags_;
};

using SwapSelectionRow = PolicyRow<std::unique_ptr<SwapSelection> (*)(const PolicyParams&), SwapSelectionFlags>;

std::span<const SwapSelectionRow> swap_selections();
// The row's selection with the `given` parameters (its defaults for the rest) and its flags.
std::unique_ptr<SwapSelection> make_swap_selection(const SwapSelectionRow& row, const ParamValues& given = {});
// No static selection: an empty plan.
std::unique_ptr<SwapSelection> make_no_selection();
// The hybrid's static plan (its plan only: no flags, no victim rule) (policy.hybrid): the hideable selection limited to swaps the
// disk hides entirely, when they alone meet the budget (hideable_selection.cpp);
// otherwise empty, and every eviction is swapped or dropped at run time.
std::unique_ptr<SwapSelection> make_hybrid_selection();

}  // namespace memsim
