// The reference rule: when the disk is idle at an op start, issue the next group of
// reads; then more groups only while they finish before this op ends. The budget is not
// consulted (the reference has none).
#include "models/swap/prefetch/reference_prefetch.h"

#include <algorithm>

namespace memsim {

namespace {

class ReferencePrefetch final : public PrefetchRule {
public:
    void begin(const PrefetchView& view, int op) override {
        start_ = view.now_ms();
        // "Idle" from the disk's own state: comparing predicted and simulated clocks
        // would break exact ties the reference relies on.
        disk_free_ = view.disk_idle() ? start_ : std::max(view.disk_free_at_ms(), start_);
        op_end_ = start_ + view.op_ms(op);
        idle_phase_ = true;
    }

    bool issue_now(const PrefetchView& view, int /*op*/, int group) override {
        if (idle_phase_ && disk_free_ <= start_) {
            disk_free_ += view.group_read_ms(group);
            return true;
        }
        idle_phase_ = false;
        if (disk_free_ + view.group_read_ms(group) > op_end_) return false;
        disk_free_ += view.group_read_ms(group);
        return true;
    }

private:
    double start_ = 0, disk_free_ = 0, op_end_ = 0;
    bool idle_phase_ = true;
};

}  // namespace

std::unique_ptr<PrefetchRule> make_reference_prefetch() { return std::make_unique<ReferencePrefetch>(); }

}  // namespace memsim
