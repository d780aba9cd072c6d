// window: N: at each backward op start, at most N read groups beyond the op's own.
#include "models/swap/prefetch/prefetch_rule.h"

namespace memsim {

namespace {

class WindowPrefetch final : public PrefetchRule {
public:
    explicit WindowPrefetch(std::uint64_t window) : window_(window) {}
    void begin(const PrefetchView& /*view*/, int /*op*/) override { issued_ = 0; }
    bool issue_now(const PrefetchView& view, int op, int group) override {
        if (group == op) return true;
        return issued_++ < window_ && fits_or_due(view, op, group);
    }

private:
    std::uint64_t window_;
    std::uint64_t issued_ = 0;
};

}  // namespace

std::unique_ptr<PrefetchRule> make_window_prefetch(const PolicyParams& p) { return std::make_unique<WindowPrefetch>(p.count("ops")); }

}  // namespace memsim
