// budget (the default under async): reads are issued in order of need, each as early
// as the memory cap allows (PrefetchMemoryGuard in prefetch_rule.h: the budget, else
// `{budget: {cap: SIZE}}`, else the run's peak with every read on demand), so that an
// early read never pushes the predicted in-use memory over the cap and never forces an
// eviction that is then read back.
#include "models/swap/prefetch/prefetch_rule.h"

namespace memsim {

namespace {

class BudgetPrefetch final : public PrefetchRule {
public:
    explicit BudgetPrefetch(std::optional<std::uint64_t> cap) : guard_(cap) {}
    void begin(const PrefetchView& view, int op) override { guard_.begin(view, op); }
    bool caps_at_no_prefetch_peak() const override { return !guard_.has_user_cap(); }

    bool issue_now(const PrefetchView& view, int op, int group) override {
        if (group == op) return true;
        if (!guard_.admits(view, op, group)) return false;
        guard_.issued(group, view.group_bytes(group));
        return true;
    }

private:
    PrefetchMemoryGuard guard_;
};

}  // namespace

std::unique_ptr<PrefetchRule> make_budget_prefetch(const PolicyParams& params) {
    return std::make_unique<BudgetPrefetch>(params.has("cap") ? std::optional(params.bytes("cap")) : std::nullopt);
}

}  // namespace memsim
