// PrefetchMemoryGuard (prefetch_rule.h): the in-use prediction over an early read's span.
#include <algorithm>

#include "models/swap/prefetch/prefetch_rule.h"

namespace memsim {

bool PrefetchMemoryGuard::admits(const PrefetchView& view, int op, int group) const {
    const std::uint64_t bytes = view.group_bytes(group);
    if (bytes == 0) return true;
    if (!view.group_fits(group)) return false;
    std::optional<std::uint64_t> cap_bytes = view.budget_bytes();
    if (user_cap_) cap_bytes = std::min(cap_bytes.value_or(*user_cap_), *user_cap_);
    if (!cap_bytes) cap_bytes = view.no_prefetch_peak_bytes();
    if (!cap_bytes) return false;  // no cap known: no early read
    const auto cap = static_cast<std::int64_t>(*cap_bytes);
    const std::int64_t base = view.planned_live_during(op) - view.op_allocation_bytes(op);
    const std::int64_t now = static_cast<std::int64_t>(view.live_bytes()) - base;
    std::int64_t taken_over = 0;
    auto next = outstanding_.upper_bound(op);
    for (int k = op; k < group; ++k) {
        for (; next != outstanding_.end() && next->first <= k; ++next) taken_over += static_cast<std::int64_t>(next->second);
        if (now + view.planned_live_during(k) - taken_over + static_cast<std::int64_t>(bytes) > cap) return false;
    }
    return true;
}

}  // namespace memsim
