#include "models/plan/offsets_greedy_by_size.h"

#include <algorithm>
#include <limits>
#include <numeric>

namespace memsim::plan {

OffsetAssignment place_in_order(const std::vector<UsageRecord>& records, const std::vector<std::size_t>& order,
                                std::uint64_t align) {
    OffsetAssignment a;
    a.offsets.assign(records.size(), 0);
    // Placed records sorted by offset: a linear scan visits the gaps in address order.
    std::vector<std::size_t> by_offset;
    by_offset.reserve(records.size());
    for (std::size_t i : order) {
        const UsageRecord& r = records[i];
        std::uint64_t best_gap = std::numeric_limits<std::uint64_t>::max();
        std::uint64_t best_offset = std::numeric_limits<std::uint64_t>::max();
        std::uint64_t gap_start = 0;  // aligned end of the intersecting tensors seen so far
        for (std::size_t j : by_offset) {
            if (!intervals_intersect(r, records[j])) continue;
            const std::uint64_t start = a.offsets[j];
            if (start >= gap_start && start - gap_start >= r.bytes && start - gap_start < best_gap) {
                best_gap = start - gap_start;
                best_offset = gap_start;
            }
            gap_start = std::max(gap_start, align_up(start + records[j].bytes, align));
        }
        if (best_offset == std::numeric_limits<std::uint64_t>::max()) best_offset = gap_start;
        a.offsets[i] = best_offset;
        auto pos = std::upper_bound(by_offset.begin(), by_offset.end(), best_offset,
                                    [&](std::uint64_t off, std::size_t j) { return off < a.offsets[j]; });
        by_offset.insert(pos, i);
        a.total = std::max(a.total, best_offset + r.bytes);
    }
    return a;
}

OffsetAssignment greedy_by_size_offsets(const std::vector<UsageRecord>& records, std::uint64_t align) {
    std::vector<std::size_t> order(records.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t x, std::size_t y) { return records[x].bytes > records[y].bytes; });
    return place_in_order(records, order, align);
}

}  // namespace memsim::plan
