// just_in_time: each read group is issued at the latest op start that still lets it, and
// every group after it, arrive before its consumer starts. The disk is one FIFO, so the
// groups form a chain: working back from the last one, the latest start of group m is
// L(m) = min(needed(m), L(m+1)) - read(m), where needed(m) is the consumer's predicted
// start (now plus the nominal compute between) and read(m) the queue's own prediction
// of its reads (those of tensors still being written included: their write may end
// first). A group is issued now when waiting for the next op start would miss L: when
// max(the queue's predicted end, the next op start) > L(g), the queue's end taking in
// everything ahead of it, writes included. Under a budget, an early read must also pass
// the budget rule's memory check (PrefetchMemoryGuard).
#include <algorithm>
#include <vector>

#include "models/swap/prefetch/prefetch_rule.h"

namespace memsim {

namespace {

class JustInTimePrefetch final : public PrefetchRule {
public:
    void begin(const PrefetchView& view, int op) override {
        guard_.begin(view, op);
        latest_.clear();
    }

    bool issue_now(const PrefetchView& view, int op, int group) override {
        if (group == op) return true;
        if (latest_.empty()) chain_from(view, op, group);
        const double next_start = view.now_ms() + view.op_ms(op);
        const double latest = latest_[static_cast<std::size_t>(group - first_)];
        if (std::max(view.disk_free_at_ms(), next_start) <= latest) return false;
        if (view.budget_bytes() && !guard_.admits(view, op, group)) return false;
        guard_.issued(group, view.group_bytes(group));
        return true;
    }

private:
    // Latest starts of groups `from`..end, computed once per op round.
    void chain_from(const PrefetchView& view, int op, int from) {
        first_ = from;
        const int n = view.op_count();
        latest_.assign(static_cast<std::size_t>(n - from), 0.0);
        double next_latest = 0;
        // needed(m) = now + compute from op to m, walked back one op at a time.
        double needed = view.now_ms() + view.compute_between(op, n - 1) + view.op_ms(n - 1);
        for (int m = n - 1; m >= from; --m) {
            needed -= view.op_ms(m);
            const double by = m == n - 1 ? needed : std::min(needed, next_latest);
            next_latest = by - view.group_read_ms_later(m);
            latest_[static_cast<std::size_t>(m - from)] = next_latest;
        }
    }

    PrefetchMemoryGuard guard_;
    std::vector<double> latest_;
    int first_ = 0;
};

}  // namespace

std::unique_ptr<PrefetchRule> make_just_in_time_prefetch(const PolicyParams&) {
    return std::make_unique<JustInTimePrefetch>();
}

}  // namespace memsim
