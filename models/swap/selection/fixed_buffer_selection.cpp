// fixed_buffer: nothing planned; whatever does not fit the budget goes to disk on
// demand (the reference's DXR rule picks it, or a recompute heuristic when one is set).
#include "models/swap/selection/swap_selection.h"

namespace memsim {

namespace {

class FixedBufferSelection final : public SwapSelection {
public:
    SwapPlan plan(const Workload& w, const SelectionInputs& /*in*/) const override { return empty_swap_plan(w); }
    bool needs_budget() const override { return true; }
    std::unique_ptr<VictimRule> victim_rule() const override { return make_victim_rule("fixed_buffer"); }
    bool spills_heuristic_victims() const override { return true; }
};

}  // namespace

std::unique_ptr<SwapSelection> make_fixed_buffer_selection() { return std::make_unique<FixedBufferSelection>(); }

}  // namespace memsim
