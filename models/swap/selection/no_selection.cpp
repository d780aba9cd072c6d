// No static selection (policy.hybrid): every swap-out is an eviction decision.
#include "models/swap/selection/swap_selection.h"

namespace memsim {

namespace {

class NoSelection final : public SwapSelection {
public:
    SwapPlan plan(const Workload& w, const SelectionInputs& /*in*/) const override { return empty_swap_plan(w); }
};

}  // namespace

std::unique_ptr<SwapSelection> make_no_selection() { return std::make_unique<NoSelection>(); }

}  // namespace memsim
