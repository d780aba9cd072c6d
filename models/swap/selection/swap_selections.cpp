// The swap selections a scenario can name (policy.swap.select), one row each: name,
// summary, factory, parameters (none yet) and what the selection needs
// (SwapSelectionFlags).
#include <array>

#include "models/swap/selection/swap_selection.h"

namespace memsim {

std::unique_ptr<SwapSelection> make_feature_maps_selection(const PolicyParams&);   // feature_maps_selection.cpp
std::unique_ptr<SwapSelection> make_budget_selection(const PolicyParams&);         // budget_selection.cpp
std::unique_ptr<SwapSelection> make_fixed_buffer_selection(const PolicyParams&);   // fixed_buffer_selection.cpp
std::unique_ptr<SwapSelection> make_hideable_selection(const PolicyParams&);       // hideable_selection.cpp
std::unique_ptr<SwapSelection> make_parameters_selection(const PolicyParams&);     // role_selection.cpp
std::unique_ptr<SwapSelection> make_optimizer_state_selection(const PolicyParams&);
std::unique_ptr<SwapSelection> make_roles_selection(const PolicyParams&);

std::span<const SwapSelectionRow> swap_selections() {
    // clang-format off
    static const std::array selections{
        SwapSelectionRow{"feature_maps", "every feature map, out after its last forward use, in for its first backward use",
                         make_feature_maps_selection},
        SwapSelectionRow{"budget", "only enough feature maps to fit the budget; the rest swapped on demand",
                         make_budget_selection, {}, {.needs_budget = true, .victim_rule = "budget"}},
        SwapSelectionRow{"fixed_buffer", "nothing planned: what does not fit is swapped on demand (the reference's DXR rule)",
                         make_fixed_buffer_selection, {},
                         {.needs_budget = true, .victim_rule = "fixed_buffer", .spills_heuristic_victims = true}},
        SwapSelectionRow{"hideable", "feature maps whose I/O the disk can hide, most memory per ms of exposed I/O first",
                         make_hideable_selection, {}, {.victim_rule = "budget"}},
        SwapSelectionRow{"parameters", "every parameter, out over its longest idle gap (forward to backward, or backward to step)",
                         make_parameters_selection, {}, {.victim_rule = {}, .may_move_parameters = true}},
        SwapSelectionRow{"optimizer_state", "every optimizer state tensor, out from the step's start until the optimizer step reads it",
                         make_optimizer_state_selection},
        SwapSelectionRow{"roles", "every tensor whose role is listed (e.g. roles: optimizer_state, parameter), out over its longest idle gap",
                         make_roles_selection,
                         {text_param("roles", "the roles swapped, separated by commas: parameter, gradient, optimizer_state, "
                                              "activation, input, other")
                              .or_default_text("optimizer_state, parameter")},
                         {.victim_rule = {}, .may_move_parameters = true}},
    };
    // clang-format on
    return selections;
}

std::unique_ptr<VictimRule> SwapSelection::victim_rule() const {
    return flags_.victim_rule.empty() ? nullptr : make_victim_rule(flags_.victim_rule);
}

struct SwapSelectionBuilder {
    static std::unique_ptr<SwapSelection> build(const SwapSelectionRow& row, const ParamValues& given) {
        std::unique_ptr<SwapSelection> selection = row.make(PolicyParams(row.params, given));
        selection->flags_ = row.flags;
        return selection;
    }
};

std::unique_ptr<SwapSelection> make_swap_selection(const SwapSelectionRow& row, const ParamValues& given) {
    return SwapSelectionBuilder::build(row, given);
}

}  // namespace memsim
