#include "models/plan/greedy_by_size.h"

#include <algorithm>
#include <limits>
#include <numeric>
#include <optional>
#include <queue>

#include "models/plan/object_gaps.h"
#include "models/swap/prefetch/range_add_max.h"

namespace memsim::plan {

// pm[k] >= v exactly when some operator has k + 1 records of at least v alive. So the
// records are added largest first to a count per operator (a range add over each record's
// interval), and pm grows by one entry, of the size just added, each time the largest
// count grows: O(n log n) (sweeping every alive size at every operator was quadratic).
std::vector<std::uint64_t> positional_maximums(const std::vector<UsageRecord>& records) {
    std::vector<std::int64_t> ops;
    for (const UsageRecord& r : records) ops.insert(ops.end(), {r.first_op, r.last_op});
    std::sort(ops.begin(), ops.end());
    ops.erase(std::unique(ops.begin(), ops.end()), ops.end());
    const auto at = [&](int op) {
        return static_cast<std::size_t>(std::lower_bound(ops.begin(), ops.end(), op) - ops.begin());
    };
    std::vector<std::size_t> order(records.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) { return records[x].bytes > records[y].bytes; });
    std::vector<std::uint64_t> pm;
    if (records.empty()) return pm;
    RangeAddMax alive(std::vector<std::int64_t>(ops.size(), 0));
    for (std::size_t k = 0; k < order.size();) {
        const std::uint64_t size = records[order[k]].bytes;
        for (; k < order.size() && records[order[k]].bytes == size; ++k)
            alive.add(at(records[order[k]].first_op), at(records[order[k]].last_op) + 1, 1);
        const auto most = static_cast<std::size_t>(alive.max(0, ops.size()));
        while (pm.size() < most) pm.push_back(size);
    }
    return pm;
}

namespace {

constexpr std::int64_t kNoDistance = ObjectGaps::kNoDistance;

// The order of placement within a position: the closest to a compatible object first,
// then the largest, then the lowest index.
struct Key {
    std::int64_t distance = kNoDistance;
    std::uint64_t bytes = 0;
    std::size_t index = 0;
    bool operator<(const Key& o) const {
        if (distance != o.distance) return distance < o.distance;
        if (bytes != o.bytes) return bytes > o.bytes;
        return index < o.index;
    }
    bool operator==(const Key& o) const { return distance == o.distance && bytes == o.bytes && index == o.index; }
};

std::int64_t distance_to(const UsageRecord& r, const ObjectGaps::Gap& g) {
    const std::int64_t left = g.a == ObjectGaps::kMinusInfinity ? kNoDistance : r.first_op - g.a;
    const std::int64_t right = g.b == ObjectGaps::kPlusInfinity ? kNoDistance : g.b - r.last_op;
    return std::min(left, right);
}

// A segment tree over a fixed order of records holding one number each, with the
// leftmost position from `begin` on whose number passes a test on the subtree's extreme.
class ExtremeTree {
public:
    ExtremeTree(const std::vector<std::int64_t>& values, bool keep_min) : keep_min_(keep_min) {
        while (size_ < values.size()) size_ *= 2;
        value_.assign(2 * size_, none());
        for (std::size_t i = 0; i < values.size(); ++i) value_[size_ + i] = values[i];
        for (std::size_t node = size_ - 1; node >= 1; --node) pull(node);
    }
    void clear(std::size_t i) {
        std::size_t node = size_ + i;
        value_[node] = none();
        for (node /= 2; node >= 1; node /= 2) pull(node);
    }
    // The leftmost i >= begin whose number is below (keep_min) / above (else) `bound`.
    [[nodiscard]] std::optional<std::size_t> first(std::size_t begin, std::int64_t bound) const {
        return find(1, 0, size_, begin, bound);
    }

private:
    [[nodiscard]] std::int64_t none() const {
        return keep_min_ ? std::numeric_limits<std::int64_t>::max() : std::numeric_limits<std::int64_t>::min();
    }
    void pull(std::size_t node) {
        value_[node] = keep_min_ ? std::min(value_[2 * node], value_[2 * node + 1]) : std::max(value_[2 * node], value_[2 * node + 1]);
    }
    [[nodiscard]] bool passes(std::int64_t value, std::int64_t bound) const { return keep_min_ ? value < bound : value > bound; }
    [[nodiscard]] std::optional<std::size_t> find(std::size_t node, std::size_t lo, std::size_t hi, std::size_t begin,
                                                  std::int64_t bound) const {
        if (hi <= begin || !passes(value_[node], bound)) return std::nullopt;
        if (hi - lo == 1) return lo;
        const std::size_t mid = (lo + hi) / 2;
        if (auto left = find(2 * node, lo, mid, begin, bound)) return left;
        return find(2 * node + 1, mid, hi, begin, bound);
    }

    bool keep_min_;
    std::size_t size_ = 1;
    std::vector<std::int64_t> value_;
};

// The unplaced records of one position, for "which of them is closest to this gap": the
// closest by its left side has the smallest first_op after a, by its right side the
// largest last_op before b (ties by size, then index, as placement orders them).
class Group {
public:
    Group(const std::vector<UsageRecord>& records, std::vector<std::size_t> members)
        : records_(records), by_first_(std::move(members)), by_last_(by_first_), slot_first_(records.size()), slot_last_(records.size()) {
        std::sort(by_first_.begin(), by_first_.end(), [&](std::size_t x, std::size_t y) {
            return records[x].first_op != records[y].first_op ? records[x].first_op < records[y].first_op : Key{0, records[x].bytes, x} < Key{0, records[y].bytes, y};
        });
        std::sort(by_last_.begin(), by_last_.end(), [&](std::size_t x, std::size_t y) {
            return records[x].last_op != records[y].last_op ? records[x].last_op > records[y].last_op : Key{0, records[x].bytes, x} < Key{0, records[y].bytes, y};
        });
        std::vector<std::int64_t> lasts, firsts;
        for (std::size_t k = 0; k < by_first_.size(); ++k) {
            slot_first_[by_first_[k]] = k;
            lasts.push_back(records[by_first_[k]].last_op);
        }
        for (std::size_t k = 0; k < by_last_.size(); ++k) {
            slot_last_[by_last_[k]] = k;
            firsts.push_back(records[by_last_[k]].first_op);
        }
        last_in_first_order_.emplace(lasts, true);
        first_in_last_order_.emplace(firsts, false);
    }

    void remove(std::size_t i) {
        last_in_first_order_->clear(slot_first_[i]);
        first_in_last_order_->clear(slot_last_[i]);
    }

    // The unplaced member closest to gap g (that it fits in), and its key through g.
    [[nodiscard]] std::optional<std::pair<Key, std::size_t>> closest_to(const ObjectGaps::Gap& g) const {
        std::optional<std::pair<Key, std::size_t>> best;
        const auto consider = [&](std::size_t i) {
            const Key key{distance_to(records_[i], g), records_[i].bytes, i};
            if (!best || key < best->first) best = {key, i};
        };
        // first_op > a, last_op < b: the first in first_op order from a on whose last_op is below b.
        const auto from = static_cast<std::size_t>(
            std::partition_point(by_first_.begin(), by_first_.end(), [&](std::size_t i) { return records_[i].first_op <= g.a; }) -
            by_first_.begin());
        if (auto k = last_in_first_order_->first(from, g.b)) consider(by_first_[*k]);
        // last_op < b, first_op > a: the first in decreasing last_op order below b whose first_op is above a.
        const auto below = static_cast<std::size_t>(
            std::partition_point(by_last_.begin(), by_last_.end(), [&](std::size_t i) { return records_[i].last_op >= g.b; }) -
            by_last_.begin());
        if (auto k = first_in_last_order_->first(below, g.a)) consider(by_last_[*k]);
        return best;
    }

private:
    const std::vector<UsageRecord>& records_;
    std::vector<std::size_t> by_first_, by_last_;
    std::vector<std::size_t> slot_first_, slot_last_;  // per record: its place in each order
    std::optional<ExtremeTree> last_in_first_order_;   // min last_op over unplaced
    std::optional<ExtremeTree> first_in_last_order_;   // max first_op over unplaced
};

// A lower bound of the key of a record (its own, computed when pushed), or of every
// record closest to a gap (the best key through that gap when pushed).
struct Entry {
    Key key;
    std::optional<ObjectGaps::Gap> gap;
    bool operator>(const Entry& o) const { return o.key < key; }
};

}  // namespace

// Each position's records are placed in key order. A record's key only changes when a gap
// it fits in is split by a placement: it grows when the record loses that gap (lazily:
// the old key is a lower bound, recomputed when popped) and shrinks when one of the two
// new gaps is closer; each new gap gets an entry keyed by its closest unplaced record,
// which bounds every record that gap brought closer. So the smallest entry that checks
// out (its key is the record's current key) is the record the quadratic definition picks.
ObjectAssignment greedy_by_size_objects(const std::vector<UsageRecord>& records) {
    const std::size_t n = records.size();
    const std::vector<std::uint64_t> pm = positional_maximums(records);
    std::vector<std::size_t> position(n);
    for (std::size_t i = 0; i < n; ++i) {
        // pm is non-increasing: count the entries >= size, the last of them is the position.
        auto end = std::partition_point(pm.begin(), pm.end(), [&](std::uint64_t v) { return v >= records[i].bytes; });
        position[i] = static_cast<std::size_t>(end - pm.begin()) - 1;
    }
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) { return position[x] < position[y]; });

    ObjectAssignment a;
    a.object_ids.assign(n, kNoRecord);
    ObjectGaps gaps(records);
    const auto key_of = [&](std::size_t i) { return Key{gaps.distance(records[i]), records[i].bytes, i}; };
    for (std::size_t from = 0; from < n;) {
        std::size_t to = from;
        while (to < n && position[order[to]] == position[order[from]]) ++to;
        Group group(records, std::vector<std::size_t>(order.begin() + static_cast<std::ptrdiff_t>(from),
                                                      order.begin() + static_cast<std::ptrdiff_t>(to)));
        std::priority_queue<Entry, std::vector<Entry>, std::greater<>> heap;
        for (std::size_t k = from; k < to; ++k) heap.push({key_of(order[k]), std::nullopt});
        const auto place = [&](std::size_t i) {
            const ObjectGaps::Closest closest = gaps.closest(records[i]);
            const std::size_t object = closest.object == kNoRecord ? gaps.objects() : closest.object;
            if (object == a.object_sizes.size()) a.object_sizes.push_back(0);
            a.object_sizes[object] = std::max(a.object_sizes[object], records[i].bytes);
            a.object_ids[i] = object;
            group.remove(i);
            const auto [before, after] = gaps.place(records[i], object);
            for (const ObjectGaps::Gap& g : {before, after})
                if (auto best = group.closest_to(g)) heap.push({best->first, g});
        };
        for (std::size_t left = to - from; left > 0;) {
            const Entry e = heap.top();
            heap.pop();
            std::size_t i = e.key.index;
            if (e.gap) {
                if (!gaps.exists(*e.gap)) continue;
                const auto best = group.closest_to(*e.gap);
                if (!best) continue;
                if (e.key < best->first) {  // its closest record was placed: the next one
                    heap.push({best->first, e.gap});
                    continue;
                }
                heap.push(e);  // still bounds the gap's other records
                i = best->second;
            } else if (a.object_ids[i] != kNoRecord) {
                continue;
            }
            const Key now = key_of(i);
            if (!(now == e.key)) {
                heap.push({now, std::nullopt});
                continue;
            }
            place(i);
            --left;
        }
        from = to;
    }
    a.total = object_total(a.object_sizes);
    return a;
}

}  // namespace memsim::plan
