// budget: as few feature maps as keep the live peak under the budget (plan_budget in
// models/swap/swap_plan.h); what the plan did not free in time is swapped out on demand,
// by the same size x idle time score, unless a recompute heuristic drops it instead.
#include "models/swap/selection/swap_selection.h"

namespace memsim {

namespace {

class BudgetSelection final : public SwapSelection {
public:
    SwapPlan plan(const Workload& w, const SelectionInputs& in) const override { return plan_budget(w, *in.budget); }
};

}  // namespace

std::unique_ptr<SwapSelection> make_budget_selection(const PolicyParams&) { return std::make_unique<BudgetSelection>(); }

}  // namespace memsim
