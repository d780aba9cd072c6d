#include "greedy_by_size_quadratic.h"

#include <algorithm>
#include <functional>
#include <limits>
#include <numeric>
#include <set>

#include "models/plan/object_schedule.h"

namespace memsim::test {

using namespace memsim::plan;

std::vector<std::uint64_t> quadratic_positional_maximums(const std::vector<UsageRecord>& records) {
    // Sweep the operators where a record starts or ends, keeping the sizes alive at each
    // one (in between, the sizes alive are a subset of the last ones: pm would not change).
    const std::vector<std::size_t> starting = records_by(records, &UsageRecord::first_op);
    const std::vector<std::size_t> ending = records_by(records, &UsageRecord::last_op);
    std::multiset<std::uint64_t, std::greater<>> alive;
    std::vector<std::uint64_t> pm;
    std::size_t s = 0, e = 0;
    for (int op : endpoint_ops(records)) {
        for (; s < starting.size() && records[starting[s]].first_op == op; ++s) alive.insert(records[starting[s]].bytes);
        std::size_t k = 0;
        for (std::uint64_t size : alive) {
            if (k == pm.size()) pm.push_back(size);
            else pm[k] = std::max(pm[k], size);
            ++k;
        }
        for (; e < ending.size() && records[ending[e]].last_op == op; ++e) alive.erase(alive.find(records[ending[e]].bytes));
    }
    return pm;
}

namespace {

constexpr int kNoDistance = std::numeric_limits<int>::max();

struct Candidate {
    std::size_t position = 0;
    int best_distance = kNoDistance;  // to the best compatible object
    std::size_t best_object = kNoRecord;
    std::vector<int> distance;        // per object: gap, or ObjectSchedule::kIncompatible
};

}  // namespace

ObjectAssignment quadratic_greedy_by_size_objects(const std::vector<UsageRecord>& records) {
    const std::size_t n = records.size();
    const std::vector<std::uint64_t> pm = quadratic_positional_maximums(records);
    std::vector<Candidate> cand(n);
    for (std::size_t i = 0; i < n; ++i) {
        // pm is non-increasing: count the entries >= size, the last of them is the position.
        auto end = std::partition_point(pm.begin(), pm.end(), [&](std::uint64_t v) { return v >= records[i].bytes; });
        cand[i].position = static_cast<std::size_t>(end - pm.begin()) - 1;
    }
    auto better = [&](std::size_t x, std::size_t y) {
        if (cand[x].position != cand[y].position) return cand[x].position < cand[y].position;
        if (cand[x].best_distance != cand[y].best_distance) return cand[x].best_distance < cand[y].best_distance;
        if (records[x].bytes != records[y].bytes) return records[x].bytes > records[y].bytes;
        return x < y;
    };
    auto recompute_best = [](Candidate& c) {
        c.best_distance = kNoDistance;
        c.best_object = kNoRecord;
        for (std::size_t obj = 0; obj < c.distance.size(); ++obj)
            if (c.distance[obj] != ObjectSchedule::kIncompatible && c.distance[obj] < c.best_distance) {
                c.best_distance = c.distance[obj];
                c.best_object = obj;
            }
    };

    ObjectAssignment a;
    a.object_ids.assign(n, kNoRecord);
    std::vector<std::size_t> unassigned(n);
    std::iota(unassigned.begin(), unassigned.end(), 0);
    while (!unassigned.empty()) {
        auto pick_it = std::min_element(unassigned.begin(), unassigned.end(), better);
        const std::size_t pick = *pick_it;
        unassigned.erase(pick_it);
        const UsageRecord& p = records[pick];
        std::size_t obj = cand[pick].best_object;
        const bool new_object = obj == kNoRecord;
        if (new_object) {
            obj = a.object_sizes.size();
            a.object_sizes.push_back(p.bytes);
        }
        a.object_sizes[obj] = std::max(a.object_sizes[obj], p.bytes);
        a.object_ids[pick] = obj;
        for (std::size_t i : unassigned) {
            Candidate& c = cand[i];
            const UsageRecord& r = records[i];
            const int gap = intervals_intersect(r, p) ? ObjectSchedule::kIncompatible
                            : r.last_op < p.first_op ? p.first_op - r.last_op
                                                     : r.first_op - p.last_op;
            if (new_object) {
                c.distance.push_back(gap);
            } else if (c.distance[obj] == ObjectSchedule::kIncompatible) {
                continue;  // already ruled out by another tenant
            } else if (gap == ObjectSchedule::kIncompatible) {
                c.distance[obj] = gap;
                if (c.best_object == obj) recompute_best(c);
                continue;
            } else {
                c.distance[obj] = std::min(c.distance[obj], gap);
            }
            const int d = c.distance[obj];
            if (d == ObjectSchedule::kIncompatible) continue;
            if (d < c.best_distance || (d == c.best_distance && obj < c.best_object)) {
                c.best_distance = d;
                c.best_object = obj;
            }
        }
    }
    a.total = object_total(a.object_sizes);
    return a;
}

}  // namespace memsim::test
