// eager: every read group is issued as soon as it fits the budget.
#include "models/swap/prefetch/prefetch_rule.h"

namespace memsim {

namespace {

class EagerPrefetch final : public PrefetchRule {
public:
    bool issue_now(const PrefetchView& view, int op, int group) override { return fits_or_due(view, op, group); }
};

}  // namespace

std::unique_ptr<PrefetchRule> make_eager_prefetch(const PolicyParams&) { return std::make_unique<EagerPrefetch>(); }

}  // namespace memsim
