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
    ObjectAssignment a;
    a.object_ids.assign(records.size(), kNoRecord);
    std::vector<ObjectSchedule> schedules;
    for (std::size_t i : breadth_first_order(records)) {
        const UsageRecord& r = records[i];
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
    }
    a.total = object_total(a.object_sizes);
    return a;
}

}  // namespace memsim::plan
