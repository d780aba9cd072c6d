// feature_maps: the reference rule (plan_feature_maps in models/swap/swap_plan.h).
#include "models/swap/selection/swap_selection.h"

namespace memsim {

namespace {

class FeatureMapsSelection final : public SwapSelection {
public:
    SwapPlan plan(const Workload& w, const SelectionInputs& /*in*/) const override { return plan_feature_maps(w); }
};

}  // namespace

std::unique_ptr<SwapSelection> make_feature_maps_selection(const PolicyParams&) { return std::make_unique<FeatureMapsSelection>(); }

}  // namespace memsim
