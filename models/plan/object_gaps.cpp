#include "models/plan/object_gaps.h"

#include <algorithm>

namespace memsim::plan {

namespace {

constexpr std::size_t kNone = static_cast<std::size_t>(-1);

std::vector<std::int64_t> sorted_unique(std::vector<std::int64_t> values) {
    std::sort(values.begin(), values.end());
    values.erase(std::unique(values.begin(), values.end()), values.end());
    return values;
}

}  // namespace

ObjectGaps::Tree::Tree(std::vector<std::int64_t> coordinates, bool keep_max)
    : coordinates_(sorted_unique(std::move(coordinates))), keep_max_(keep_max) {
    while (size_ < coordinates_.size()) size_ *= 2;
    value_.assign(2 * size_, empty_value());
    gaps_.resize(coordinates_.size());
}

std::size_t ObjectGaps::Tree::leaf(std::int64_t at) const {
    return static_cast<std::size_t>(std::lower_bound(coordinates_.begin(), coordinates_.end(), at) - coordinates_.begin());
}

void ObjectGaps::Tree::refresh(std::size_t i) {
    const auto& here = gaps_[i];
    std::size_t node = size_ + i;
    value_[node] = here.empty() ? empty_value() : keep_max_ ? here.rbegin()->first : here.begin()->first;
    for (node /= 2; node >= 1; node /= 2)
        value_[node] = keep_max_ ? std::max(value_[2 * node], value_[2 * node + 1]) : std::min(value_[2 * node], value_[2 * node + 1]);
}

void ObjectGaps::Tree::insert(std::int64_t at, std::int64_t other, std::size_t object) {
    const std::size_t i = leaf(at);
    gaps_[i].emplace(other, object);
    refresh(i);
}

void ObjectGaps::Tree::erase(std::int64_t at, std::int64_t other, std::size_t object) {
    const std::size_t i = leaf(at);
    gaps_[i].erase({other, object});
    refresh(i);
}

// The rightmost leaf in [lo, hi) below `end` whose value is above `bound`.
std::int64_t ObjectGaps::Tree::find_max(std::size_t node, std::size_t lo, std::size_t hi, std::size_t end,
                                        std::int64_t bound) const {
    if (lo >= end || value_[node] <= bound) return static_cast<std::int64_t>(kNone);
    if (hi - lo == 1) return static_cast<std::int64_t>(lo);
    const std::size_t mid = (lo + hi) / 2;
    const std::int64_t right = find_max(2 * node + 1, mid, hi, end, bound);
    return right != static_cast<std::int64_t>(kNone) ? right : find_max(2 * node, lo, mid, end, bound);
}

// The leftmost leaf in [lo, hi) from `begin` on whose value is below `bound`.
std::int64_t ObjectGaps::Tree::find_min(std::size_t node, std::size_t lo, std::size_t hi, std::size_t begin,
                                        std::int64_t bound) const {
    if (hi <= begin || value_[node] >= bound) return static_cast<std::int64_t>(kNone);
    if (hi - lo == 1) return static_cast<std::int64_t>(lo);
    const std::size_t mid = (lo + hi) / 2;
    const std::int64_t left = find_min(2 * node, lo, mid, begin, bound);
    return left != static_cast<std::int64_t>(kNone) ? left : find_min(2 * node + 1, mid, hi, begin, bound);
}

std::int64_t ObjectGaps::Tree::search(std::int64_t limit, std::int64_t bound) const {
    if (keep_max_) {
        const auto end = static_cast<std::size_t>(std::lower_bound(coordinates_.begin(), coordinates_.end(), limit) -
                                                  coordinates_.begin());
        const std::int64_t i = find_max(1, 0, size_, end, bound);
        return i == static_cast<std::int64_t>(kNone) ? kMinusInfinity : coordinates_[static_cast<std::size_t>(i)];
    }
    const auto begin =
        static_cast<std::size_t>(std::upper_bound(coordinates_.begin(), coordinates_.end(), limit) - coordinates_.begin());
    const std::int64_t i = find_min(1, 0, size_, begin, bound);
    return i == static_cast<std::int64_t>(kNone) ? kPlusInfinity : coordinates_[static_cast<std::size_t>(i)];
}

std::size_t ObjectGaps::Tree::lowest_object(std::int64_t at, std::int64_t bound) const {
    // `at` need not be a gap end (the distance may come from the other side): then no gap.
    const std::size_t i = leaf(at);
    if (i == coordinates_.size() || coordinates_[i] != at) return kNoRecord;
    const auto& here = gaps_[i];
    std::size_t lowest = kNoRecord;
    if (keep_max_) {
        for (auto it = here.upper_bound({bound, kNoRecord}); it != here.end(); ++it) lowest = std::min(lowest, it->second);
    } else {
        for (auto it = here.begin(); it != here.end() && it->first < bound; ++it) lowest = std::min(lowest, it->second);
    }
    return lowest;
}

namespace {

std::vector<std::int64_t> left_ends(const std::vector<UsageRecord>& records) {
    std::vector<std::int64_t> values{ObjectGaps::kMinusInfinity};
    for (const UsageRecord& r : records) values.push_back(r.last_op);
    return values;
}

std::vector<std::int64_t> right_ends(const std::vector<UsageRecord>& records) {
    std::vector<std::int64_t> values{ObjectGaps::kPlusInfinity};
    for (const UsageRecord& r : records) values.push_back(r.first_op);
    return values;
}

}  // namespace

ObjectGaps::ObjectGaps(const std::vector<UsageRecord>& records)
    : by_a_(left_ends(records), true), by_b_(right_ends(records), false) {}

std::int64_t ObjectGaps::distance(const UsageRecord& r) const {
    const std::int64_t a = by_a_.search(r.first_op, r.last_op);   // the largest a < x among gaps with b > y
    const std::int64_t b = by_b_.search(r.last_op, r.first_op);   // the smallest b > y among gaps with a < x
    const std::int64_t left = a == kMinusInfinity ? kNoDistance : r.first_op - a;
    const std::int64_t right = b == kPlusInfinity ? kNoDistance : b - r.last_op;
    return std::min(left, right);
}

ObjectGaps::Closest ObjectGaps::closest(const UsageRecord& r) const {
    Closest c;
    c.distance = distance(r);
    if (c.distance == kNoDistance) return c;
    // Every object at that distance has a tenant ending at x - d or starting at y + d.
    c.object = std::min(by_a_.lowest_object(r.first_op - c.distance, r.last_op),
                        by_b_.lowest_object(r.last_op + c.distance, r.first_op));
    return c;
}

void ObjectGaps::add_gap(const Gap& g) {
    by_a_.insert(g.a, g.b, g.object);
    by_b_.insert(g.b, g.a, g.object);
}

void ObjectGaps::remove_gap(const Gap& g) {
    by_a_.erase(g.a, g.b, g.object);
    by_b_.erase(g.b, g.a, g.object);
}

bool ObjectGaps::exists(const Gap& g) const {
    const std::map<int, int>& tenants = tenants_[g.object];
    const auto next = g.a == kMinusInfinity ? tenants.begin() : tenants.upper_bound(static_cast<int>(g.a));
    if (next == tenants.end() ? g.b != kPlusInfinity : next->first != g.b) return false;
    return next == tenants.begin() ? g.a == kMinusInfinity : std::prev(next)->second == g.a;
}

std::pair<ObjectGaps::Gap, ObjectGaps::Gap> ObjectGaps::place(const UsageRecord& r, std::size_t object) {
    std::int64_t a = kMinusInfinity, b = kPlusInfinity;
    if (object == tenants_.size()) {
        tenants_.emplace_back();
    } else {
        const std::map<int, int>& tenants = tenants_[object];
        const auto next = tenants.lower_bound(r.first_op);
        if (next != tenants.end()) b = next->first;
        if (next != tenants.begin()) a = std::prev(next)->second;
        remove_gap({a, b, object});
    }
    tenants_[object].emplace(r.first_op, r.last_op);
    const Gap before{a, r.first_op, object}, after{r.last_op, b, object};
    add_gap(before);
    add_gap(after);
    return {before, after};
}

}  // namespace memsim::plan
