// The swap selections a scenario can name (policy.swap.select), one row each.
#include <array>

#include "models/swap/selection/swap_selection.h"

namespace memsim {

std::unique_ptr<SwapSelection> make_feature_maps_selection();   // feature_maps_selection.cpp
std::unique_ptr<SwapSelection> make_budget_selection();         // budget_selection.cpp
std::unique_ptr<SwapSelection> make_fixed_buffer_selection();   // fixed_buffer_selection.cpp
std::unique_ptr<SwapSelection> make_hideable_selection();       // hideable_selection.cpp

namespace {

const std::array kSelections{
    SwapSelectionRow{"feature_maps", "every feature map, out after its last forward use, in for its first backward use",
                     make_feature_maps_selection},
    SwapSelectionRow{"budget", "only enough feature maps to fit the budget; the rest swapped on demand",
                     make_budget_selection},
    SwapSelectionRow{"fixed_buffer", "nothing planned: what does not fit is swapped on demand (the reference's DXR rule)",
                     make_fixed_buffer_selection},
    SwapSelectionRow{"hideable", "feature maps whose I/O the disk can hide, most memory per ms of exposed I/O first",
                     make_hideable_selection},
};

}  // namespace

std::span<const SwapSelectionRow> swap_selections() { return kSelections; }

}  // namespace memsim
