// on demand: each read group is issued when its consumer starts, never earlier. The
// engine runs it to measure the no-prefetch peak that caps the budget rule's early reads.
#include "models/swap/prefetch/prefetch_rule.h"

namespace memsim {

namespace {

class OnDemandPrefetch final : public PrefetchRule {
public:
    bool issue_now(const PrefetchView& /*view*/, int op, int group) override { return group == op; }
};

}  // namespace

std::unique_ptr<PrefetchRule> make_on_demand_prefetch() { return std::make_unique<OnDemandPrefetch>(); }

}  // namespace memsim
