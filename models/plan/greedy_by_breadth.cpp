#include "models/plan/greedy_by_breadth.h"

#include <algorithm>
#include <numeric>

#include "models/plan/object_schedule.h"

namespace memsim::plan {

namespace {

// Is `candidate` a better fit for `size` than `best` (smallest >= size, else largest smaller: docs/planners.md)?
bool fits_better(std::uint64_t candidate, std::uint64_t best, std::uint64_t size) {
    if (best >= size) return candidate >= size && candidate < best;
    return candidate > best;
}

}  // namespace

ObjectAssignment greedy_by_breadth(const std::vector<UsageRecord>& records) {
    const std::vector<std::uint64_t> breadth = live_bytes_per_op(records);
    std::vector<int> ops(breadth.size());
    std::iota(ops.begin(), ops.end(), 0);
    std::stable_sort(ops.begin(), ops.end(), [&](int x, int y) { return breadth[x] > breadth[y]; });

    std::vector<std::size_t> by_size(records.size());
    std::iota(by_size.begin(), by_size.end(), 0);
    std::stable_sort(by_size.begin(), by_size.end(),
                     [&](std::size_t x, std::size_t y) { return records[x].bytes > records[y].bytes; });

    ObjectAssignment a;
    a.object_ids.assign(records.size(), kNoRecord);
    std::vector<ObjectSchedule> schedules;
    std::size_t unassigned = records.size();
    for (int op : ops) {
        if (unassigned == 0) break;
        for (std::size_t i : by_size) {
            const UsageRecord& r = records[i];
            if (a.object_ids[i] != kNoRecord || r.first_op > op || r.last_op < op) continue;
            std::size_t best = kNoRecord;
            for (std::size_t obj = 0; obj < schedules.size(); ++obj) {
                if (best != kNoRecord && !fits_better(a.object_sizes[obj], a.object_sizes[best], r.bytes)) continue;
                if (schedules[obj].fits(r)) best = obj;
            }
            if (best == kNoRecord) {
                best = schedules.size();
                schedules.emplace_back();
                a.object_sizes.push_back(r.bytes);
            }
            schedules[best].add(r);
            a.object_sizes[best] = std::max(a.object_sizes[best], r.bytes);
            a.object_ids[i] = best;
            --unassigned;
        }
    }
    a.total = object_total(a.object_sizes);
    return a;
}

}  // namespace memsim::plan
