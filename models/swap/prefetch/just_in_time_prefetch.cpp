// just_in_time: a read group is issued now if waiting for the next op start would make
// it late, given the disk queue ahead of it (the queue's own prediction of when it is
// free).
#include <algorithm>

#include "models/swap/prefetch/prefetch_rule.h"

namespace memsim {

namespace {

class JustInTimePrefetch final : public PrefetchRule {
public:
    bool issue_now(const PrefetchView& view, int op, int group) override {
        if (group == op) return true;
        const double next_start = view.now_ms() + view.op_ms(op);
        const double needed_at = view.now_ms() + view.compute_between(op, group);
        const double done_if_later = std::max(view.disk_free_at_ms(), next_start) + view.group_read_ms(group);
        return done_if_later > needed_at && view.group_fits(group);
    }
};

}  // namespace

std::unique_ptr<PrefetchRule> make_just_in_time_prefetch(const PrefetchParams&) {
    return std::make_unique<JustInTimePrefetch>();
}

}  // namespace memsim
