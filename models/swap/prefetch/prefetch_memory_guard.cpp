// PrefetchMemoryGuard (prefetch_rule.h): the in-use prediction over an early read's span.
#include <algorithm>

#include "models/checked_math.h"
#include "models/swap/prefetch/prefetch_rule.h"

namespace memsim {

PrefetchMemoryGuard::PrefetchMemoryGuard(std::optional<std::uint64_t> user_cap) : user_cap_(user_cap) {}
PrefetchMemoryGuard::~PrefetchMemoryGuard() = default;

void PrefetchMemoryGuard::begin(const PrefetchView& view, int op) {
    if (!planned_minus_issued_) {
        std::vector<std::int64_t> planned(static_cast<std::size_t>(view.op_count()));
        for (int k = 0; k < view.op_count(); ++k) planned[static_cast<std::size_t>(k)] = view.planned_live_during(k);
        planned_minus_issued_ = std::make_unique<RangeAddMax>(planned);
    }
    // issued(op): every early group for a consumer up to op, read off the tree at op.
    const auto at = static_cast<std::size_t>(op);
    taken_over_ = view.planned_live_during(op) - planned_minus_issued_->max(at, at + 1);
}

void PrefetchMemoryGuard::issued(int group, std::uint64_t bytes) {
    planned_minus_issued_->add(static_cast<std::size_t>(group), planned_minus_issued_->size(),
                               -static_cast<std::int64_t>(bytes));
}

bool PrefetchMemoryGuard::admits(const PrefetchView& view, int op, int group) const {
    const std::uint64_t bytes = view.group_bytes(group);
    if (bytes == 0) return true;
    if (!view.group_fits(group)) return false;
    std::optional<std::uint64_t> cap_bytes = view.budget_bytes();
    if (user_cap_) cap_bytes = std::min(cap_bytes.value_or(*user_cap_), *user_cap_);
    if (!cap_bytes) cap_bytes = view.no_prefetch_peak_bytes();
    if (!cap_bytes) return false;  // no cap known: no early read
    if (group <= op) return true;  // held over no op before its consumer
    const auto cap = saturated_signed(*cap_bytes);
    const std::int64_t base = view.planned_live_during(op) - view.op_allocation_bytes(op);
    const std::int64_t now = static_cast<std::int64_t>(view.live_bytes()) - base;
    // max over k in [op, group) of plan(k) - (issued(k) - issued(op)), issued(op) being
    // the groups taken over by now.
    const std::int64_t peak = planned_minus_issued_->max(static_cast<std::size_t>(op), static_cast<std::size_t>(group)) +
                              taken_over_;
    return now + peak + static_cast<std::int64_t>(bytes) <= cap;
}

}  // namespace memsim
