// The budget selection's own score for on-demand swap-outs: size x compute time until
// the tensor is needed again (ties: lower tensor id).
#include <algorithm>

#include "models/swap/victim/victim_rule.h"

namespace memsim {

namespace {

class BudgetVictim final : public VictimRule {
public:
    TensorId choose(const VictimView& view, const std::vector<TensorId>& candidates, int op) override {
        const Workload& w = view.workload();
        auto score = [&](TensorId t) { return static_cast<double>(w.tensors[t].bytes) * view.ms_until_next_use(t, op); };
        return *std::max_element(candidates.begin(), candidates.end(), [&](TensorId a, TensorId b) {
            const double sa = score(a), sb = score(b);
            if (sa != sb) return sa < sb;
            return a > b;
        });
    }
};

}  // namespace

std::unique_ptr<VictimRule> make_budget_victim() { return std::make_unique<BudgetVictim>(); }

}  // namespace memsim
