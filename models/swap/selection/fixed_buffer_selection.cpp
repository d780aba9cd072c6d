// fixed_buffer: nothing planned; whatever does not fit the budget goes to disk on
// demand (the reference's DXR rule picks it, or a recompute heuristic when one is set).
#include "models/swap/selection/swap_selection.h"

namespace memsim {

namespace {

class FixedBufferSelection final : public SwapSelection {
public:
    SwapPlan plan(const Workload& w, const SelectionInputs& /*in*/) const override { return empty_swap_plan(w); }
};

}  // namespace

std::unique_ptr<SwapSelection> make_fixed_buffer_selection(const PolicyParams&) { return std::make_unique<FixedBufferSelection>(); }

}  // namespace memsim
