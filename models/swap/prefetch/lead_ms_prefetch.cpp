// lead_ms: T: the reads for backward op j are issued once the compute left before j is
// at most T.
#include "models/swap/prefetch/prefetch_rule.h"

namespace memsim {

namespace {

class LeadMsPrefetch final : public PrefetchRule {
public:
    explicit LeadMsPrefetch(double lead_ms) : lead_ms_(lead_ms) {}
    bool issue_now(const PrefetchView& view, int op, int group) override {
        return view.compute_between(op, group) <= lead_ms_ && fits_or_due(view, op, group);
    }

private:
    double lead_ms_;
};

}  // namespace

std::unique_ptr<PrefetchRule> make_lead_ms_prefetch(const PolicyParams& p) { return std::make_unique<LeadMsPrefetch>(p.number("lead")); }

}  // namespace memsim
