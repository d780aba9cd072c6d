// lead_ops: N: the reads for backward op j are issued at the start of op j - N.
#include "models/swap/prefetch/prefetch_rule.h"

namespace memsim {

namespace {

class LeadOpsPrefetch final : public PrefetchRule {
public:
    explicit LeadOpsPrefetch(int lead_ops) : lead_ops_(lead_ops) {}
    bool issue_now(const PrefetchView& view, int op, int group) override {
        return group - lead_ops_ <= op && fits_or_due(view, op, group);
    }

private:
    int lead_ops_;
};

}  // namespace

std::unique_ptr<PrefetchRule> make_lead_ops_prefetch(const PolicyParams& p) {
    return std::make_unique<LeadOpsPrefetch>(static_cast<int>(p.count("lead")));
}

}  // namespace memsim
