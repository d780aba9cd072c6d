#include "models/plan/plan_types.h"

#include <algorithm>
#include <map>
#include <stdexcept>

#include <fmt/format.h>

#include "models/checked_math.h"

namespace memsim::plan {

int op_span(const std::vector<UsageRecord>& records) {
    int span = 0;
    for (const UsageRecord& r : records) span = std::max(span, r.last_op + 1);
    return span;
}

std::vector<std::uint64_t> live_bytes_per_op(const std::vector<UsageRecord>& records) {
    // Difference array: +size at first_op, -size after last_op.
    const int span = op_span(records);
    std::vector<std::int64_t> delta(static_cast<std::size_t>(span) + 1, 0);
    for (const UsageRecord& r : records) {
        delta[r.first_op] += static_cast<std::int64_t>(r.bytes);
        delta[r.last_op + 1] -= static_cast<std::int64_t>(r.bytes);
    }
    std::vector<std::uint64_t> live(span, 0);
    std::int64_t running = 0;
    for (int op = 0; op < span; ++op) {
        running += delta[op];
        live[op] = static_cast<std::uint64_t>(running);
    }
    return live;
}

std::vector<LiveStretch> live_stretches(const std::vector<UsageRecord>& records) {
    std::vector<std::pair<std::int64_t, std::int64_t>> changes;  // (op, bytes added or removed)
    changes.reserve(2 * records.size());
    for (const UsageRecord& r : records) {
        changes.emplace_back(r.first_op, static_cast<std::int64_t>(r.bytes));
        changes.emplace_back(static_cast<std::int64_t>(r.last_op) + 1, -static_cast<std::int64_t>(r.bytes));
    }
    std::sort(changes.begin(), changes.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<LiveStretch> stretches;
    std::int64_t running = 0;
    for (std::size_t i = 0; i < changes.size();) {
        const std::int64_t op = changes[i].first;
        for (; i < changes.size() && changes[i].first == op; ++i) running += changes[i].second;
        stretches.push_back({static_cast<int>(op), static_cast<std::uint64_t>(running)});
    }
    return stretches;
}

std::uint64_t live_bytes_peak(const std::vector<UsageRecord>& records) {
    std::uint64_t peak = 0;
    for (const LiveStretch& s : live_stretches(records)) peak = std::max(peak, s.bytes);
    return peak;
}

std::vector<int> endpoint_ops(const std::vector<UsageRecord>& records) {
    std::vector<int> ops;
    ops.reserve(2 * records.size());
    for (const UsageRecord& r : records) {
        ops.push_back(r.first_op);
        ops.push_back(r.last_op);
    }
    std::sort(ops.begin(), ops.end());
    ops.erase(std::unique(ops.begin(), ops.end()), ops.end());
    return ops;
}

std::vector<std::size_t> records_by(const std::vector<UsageRecord>& records, int UsageRecord::*key) {
    std::vector<std::size_t> order(records.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return records[a].*key < records[b].*key; });
    return order;
}

std::vector<std::size_t> breadth_first_order(const std::vector<UsageRecord>& records) {
    const std::vector<LiveStretch> stretches = live_stretches(records);
    const std::size_t n = stretches.size();
    // rank[s]: the place of stretch s among operators by decreasing breadth, ties by lower op
    // (every operator of a stretch has its breadth and its records; its first op comes first).
    std::vector<std::size_t> by_breadth(n), rank(n);
    for (std::size_t s = 0; s < n; ++s) by_breadth[s] = s;
    std::stable_sort(by_breadth.begin(), by_breadth.end(),
                     [&](std::size_t a, std::size_t b) { return stretches[a].bytes > stretches[b].bytes; });
    for (std::size_t k = 0; k < n; ++k) rank[by_breadth[k]] = k;
    // The smallest rank over a record's stretches: a segment tree of range minimums.
    std::vector<std::size_t> tree(2 * n);
    for (std::size_t s = 0; s < n; ++s) tree[n + s] = rank[s];
    for (std::size_t i = n; i-- > 1;) tree[i] = std::min(tree[2 * i], tree[2 * i + 1]);
    auto min_rank = [&](std::size_t lo, std::size_t hi) {  // over stretches [lo, hi)
        std::size_t best = n;
        for (lo += n, hi += n; lo < hi; lo /= 2, hi /= 2) {
            if (lo & 1) best = std::min(best, tree[lo++]);
            if (hi & 1) best = std::min(best, tree[--hi]);
        }
        return best;
    };
    auto stretch_at = [&](int op) {  // the stretch holding op
        return static_cast<std::size_t>(std::upper_bound(stretches.begin(), stretches.end(), op,
                                                         [](int v, const LiveStretch& s) { return v < s.op; }) -
                                        stretches.begin()) - 1;
    };
    std::vector<std::size_t> taken_at(records.size());
    for (std::size_t i = 0; i < records.size(); ++i)
        taken_at[i] = min_rank(stretch_at(records[i].first_op), stretch_at(records[i].last_op) + 1);
    std::vector<std::size_t> order(records.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        if (taken_at[a] != taken_at[b]) return taken_at[a] < taken_at[b];
        return records[a].bytes > records[b].bytes;
    });
    return order;
}

namespace {

std::string describe(const std::vector<UsageRecord>& records, std::size_t i) {
    const UsageRecord& r = records[i];
    return fmt::format("record {} (tensor {}, {} bytes, ops [{}, {}])", i, r.tensor, r.bytes, r.first_op, r.last_op);
}

// Calls visit(j, i) for every pair of records alive together (their op intervals
// intersect) whose ranges [lo, hi) overlap; a record with lo == hi takes no room. Sweeps
// the records by first_op, the alive ones in a max tree of hi over their rank by lo: the
// alive ranges that overlap [lo_i, hi_i) are those before hi_i whose hi passes lo_i, each
// found in O(log n). So a check that throws at the first bad pair costs O(n log n) plus
// the pairs it accepts (in-place children sharing their parent's bytes), however many
// records are alive together (visiting every pair alive together was quadratic on a
// training log, where every activation lives until its backward op: issue 31, item 8).
template <typename Visit>
void for_each_overlapping_pair(const std::vector<UsageRecord>& records, const std::vector<std::uint64_t>& lo,
                               const std::vector<std::uint64_t>& hi, Visit visit) {
    const std::size_t n = records.size();
    std::vector<std::size_t> by_lo(n), by_first(n), rank(n);
    for (std::size_t i = 0; i < n; ++i) by_lo[i] = by_first[i] = i;
    std::stable_sort(by_lo.begin(), by_lo.end(), [&](std::size_t a, std::size_t b) { return lo[a] < lo[b]; });
    std::stable_sort(by_first.begin(), by_first.end(),
                     [&](std::size_t a, std::size_t b) { return records[a].first_op < records[b].first_op; });
    for (std::size_t k = 0; k < n; ++k) rank[by_lo[k]] = k;
    std::size_t size = 1;
    while (size < n) size *= 2;
    std::vector<std::uint64_t> most_hi(2 * size, 0);  // 0: no alive record (an alive one has hi > lo >= 0)
    const auto put = [&](std::size_t k, std::uint64_t value) {
        most_hi[size + k] = value;
        for (std::size_t node = (size + k) / 2; node >= 1; node /= 2)
            most_hi[node] = std::max(most_hi[2 * node], most_hi[2 * node + 1]);
    };
    struct Span {
        std::size_t node, first, width;  // the tree node over ranks [first, first + width)
    };
    std::vector<std::size_t> found;
    std::vector<Span> stack;
    std::multimap<int, std::size_t> alive;  // last_op -> record
    for (std::size_t i : by_first) {
        while (!alive.empty() && alive.begin()->first < records[i].first_op) {
            put(rank[alive.begin()->second], 0);
            alive.erase(alive.begin());
        }
        if (lo[i] == hi[i]) continue;
        const auto end = static_cast<std::size_t>(
            std::partition_point(by_lo.begin(), by_lo.end(), [&](std::size_t j) { return lo[j] < hi[i]; }) - by_lo.begin());
        found.clear();
        stack.assign(1, Span{1, 0, size});
        while (!stack.empty()) {
            const Span at = stack.back();
            stack.pop_back();
            if (most_hi[at.node] <= lo[i] || at.first >= end) continue;
            if (at.width == 1) {
                found.push_back(by_lo[at.first]);
                continue;
            }
            const std::size_t half = at.width / 2;
            stack.push_back({2 * at.node + 1, at.first + half, half});
            stack.push_back({2 * at.node, at.first, half});
        }
        for (std::size_t j : found) visit(j, i);
        put(rank[i], hi[i]);
        alive.emplace(records[i].last_op, i);
    }
}

}  // namespace

void check_objects(const std::vector<UsageRecord>& records, const ObjectAssignment& a) {
    if (a.object_ids.size() != records.size())
        throw std::logic_error(fmt::format("plan has {} object ids for {} records", a.object_ids.size(), records.size()));
    for (std::size_t i = 0; i < records.size(); ++i) {
        if (a.object_ids[i] >= a.object_sizes.size())
            throw std::logic_error(fmt::format("{} has no object", describe(records, i)));
        if (a.object_sizes[a.object_ids[i]] < records[i].bytes)
            throw std::logic_error(fmt::format("{} does not fit its object {} of {} bytes", describe(records, i),
                                               a.object_ids[i], a.object_sizes[a.object_ids[i]]));
    }
    auto parent = [&](std::size_t i) { return a.inplace_parent.empty() ? kNoRecord : a.inplace_parent[i]; };
    std::vector<std::uint64_t> lo(records.size()), hi(records.size());  // an object as a one-byte range
    for (std::size_t i = 0; i < records.size(); ++i) hi[i] = (lo[i] = a.object_ids[i]) + 1;
    for_each_overlapping_pair(records, lo, hi, [&](std::size_t i, std::size_t j) {
        if (parent(i) == j || parent(j) == i) return;
        throw std::logic_error(fmt::format("{} and {} are alive together but share object {}", describe(records, i),
                                           describe(records, j), a.object_ids[i]));
    });
    if (a.total != object_total(a.object_sizes))
        throw std::logic_error(fmt::format("plan total {} is not the sum of its object sizes", a.total));
}

void check_offsets(const std::vector<UsageRecord>& records, const OffsetAssignment& a, std::uint64_t align) {
    if (a.offsets.size() != records.size())
        throw std::logic_error(fmt::format("plan has {} offsets for {} records", a.offsets.size(), records.size()));
    std::uint64_t max_end = 0;
    std::vector<std::uint64_t> ends(records.size());  // checked: a wrapped end would pass the overlap test
    for (std::size_t i = 0; i < records.size(); ++i) {
        if (align > 1 && a.offsets[i] % align != 0)
            throw std::logic_error(fmt::format("{} has offset {} not aligned to {}", describe(records, i), a.offsets[i], align));
        const auto end = checked_add(a.offsets[i], records[i].bytes);
        if (!end) throw std::logic_error(fmt::format("{} at offset {} ends past 2^64", describe(records, i), a.offsets[i]));
        ends[i] = *end;
        max_end = std::max(max_end, *end);
    }
    auto parent = [&](std::size_t i) { return a.inplace_parent.empty() ? kNoRecord : a.inplace_parent[i]; };
    for_each_overlapping_pair(records, a.offsets, ends, [&](std::size_t i, std::size_t j) {
        if (parent(i) != j && parent(j) != i)
            throw std::logic_error(fmt::format("{} at offset {} and {} at offset {} are alive together and overlap",
                                               describe(records, i), a.offsets[i], describe(records, j), a.offsets[j]));
    });
    if (a.total < max_end)
        throw std::logic_error(fmt::format("plan total {} is below the end {} of a tensor", a.total, max_end));
}

}  // namespace memsim::plan
