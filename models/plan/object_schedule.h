// The tenants of one shared object, kept by first_op. Tenants never intersect, so the
// order by first_op is also the order by last_op and a new interval only has to be
// checked against its two neighbours.
#pragma once

#include <cstddef>
#include <limits>
#include <map>

#include "models/workload/workload.h"

namespace memsim::plan {

class ObjectSchedule {
public:
    static constexpr int kIncompatible = -1;

    void add(const UsageRecord& r) { by_first_.emplace(r.first_op, r.last_op); }
    // Smallest gap (first_op of the later minus last_op of the earlier, >= 1) between
    // `r` and a tenant, or kIncompatible when `r` intersects a tenant.
    [[nodiscard]] int distance(const UsageRecord& r) const {
        int best = std::numeric_limits<int>::max();
        auto next = by_first_.lower_bound(r.first_op);
        if (next != by_first_.end()) {
            if (next->first <= r.last_op) return kIncompatible;
            best = next->first - r.last_op;
        }
        if (next != by_first_.begin()) {
            auto prev = std::prev(next);
            if (prev->second >= r.first_op) return kIncompatible;
            best = std::min(best, r.first_op - prev->second);
        }
        return best;
    }
    [[nodiscard]] bool fits(const UsageRecord& r) const { return distance(r) != kIncompatible; }

private:
    std::map<int, int> by_first_;  // first_op -> last_op
};

}  // namespace memsim::plan
