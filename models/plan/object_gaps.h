// The free stretches of greedy_by_size's objects (models/plan/greedy_by_size.h), indexed so
// that a record's closest compatible object is found in O(log n) instead of by visiting
// every object. An object's tenants never intersect; between two consecutive tenants,
// before the first and after the last, it has a gap (a, b): a is the last op of the tenant
// before (kMinusInfinity for none), b the first op of the tenant after (kPlusInfinity).
// A record [x, y] fits an object exactly when one of its gaps has a < x and y < b, and its
// distance to the object is then min(x - a, b - y), the gap to the nearest tenant.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <map>
#include <set>
#include <utility>
#include <vector>

#include "models/plan/plan_types.h"

namespace memsim::plan {

class ObjectGaps {
public:
    static constexpr std::int64_t kMinusInfinity = std::numeric_limits<std::int64_t>::min() / 4;
    static constexpr std::int64_t kPlusInfinity = std::numeric_limits<std::int64_t>::max() / 4;
    static constexpr std::int64_t kNoDistance = std::numeric_limits<std::int64_t>::max();

    explicit ObjectGaps(const std::vector<UsageRecord>& records);

    // The smallest distance from [x, y] to any object it fits, and the lowest object id at
    // that distance (kNoRecord and kNoDistance when it fits none).
    struct Closest {
        std::int64_t distance = kNoDistance;
        std::size_t object = kNoRecord;
    };
    [[nodiscard]] std::int64_t distance(const UsageRecord& r) const;
    [[nodiscard]] Closest closest(const UsageRecord& r) const;

    // Puts `r` into `object` (a new one when object == objects()); returns the two gaps it
    // leaves on either side, for the caller's bookkeeping.
    struct Gap {
        std::int64_t a, b;
        std::size_t object;
    };
    std::pair<Gap, Gap> place(const UsageRecord& r, std::size_t object);
    [[nodiscard]] bool exists(const Gap& g) const;
    [[nodiscard]] std::size_t objects() const { return tenants_.size(); }

private:
    // A max (or min) tree over sorted coordinates; each leaf holds the gaps with that
    // coordinate as (other end, object), its value the largest (smallest) other end.
    class Tree {
    public:
        Tree(std::vector<std::int64_t> coordinates, bool keep_max);
        void insert(std::int64_t at, std::int64_t other, std::size_t object);
        void erase(std::int64_t at, std::int64_t other, std::size_t object);
        // keep_max: the largest coordinate below `limit` holding an other end above `bound`;
        // else the smallest coordinate above `limit` holding an other end below `bound`.
        [[nodiscard]] std::int64_t search(std::int64_t limit, std::int64_t bound) const;
        // The lowest object among the gaps at `at` whose other end is beyond `bound`.
        [[nodiscard]] std::size_t lowest_object(std::int64_t at, std::int64_t bound) const;

    private:
        [[nodiscard]] std::size_t leaf(std::int64_t at) const;
        void refresh(std::size_t leaf);
        [[nodiscard]] std::int64_t empty_value() const { return keep_max_ ? kMinusInfinity : kPlusInfinity; }
        [[nodiscard]] bool beyond(std::int64_t value, std::int64_t bound) const { return keep_max_ ? value > bound : value < bound; }
        std::int64_t find_max(std::size_t node, std::size_t lo, std::size_t hi, std::size_t end, std::int64_t bound) const;
        std::int64_t find_min(std::size_t node, std::size_t lo, std::size_t hi, std::size_t begin, std::int64_t bound) const;

        std::vector<std::int64_t> coordinates_;
        bool keep_max_;
        std::size_t size_ = 1;
        std::vector<std::int64_t> value_;                                   // heap-ordered, leaves at size_ + i
        std::vector<std::set<std::pair<std::int64_t, std::size_t>>> gaps_;  // per leaf: (other end, object)
    };

    void add_gap(const Gap& g);
    void remove_gap(const Gap& g);

    Tree by_a_;  // gaps by their left end; a leaf's value is its largest b
    Tree by_b_;  // gaps by their right end; a leaf's value is its smallest a
    std::vector<std::map<int, int>> tenants_;  // per object: first_op -> last_op
};

}  // namespace memsim::plan
