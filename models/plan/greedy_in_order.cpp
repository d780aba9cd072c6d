#include "models/plan/greedy_in_order.h"

#include <algorithm>
#include <iterator>
#include <set>

#include "models/plan/release_queue.h"

namespace memsim::plan {

ObjectAssignment greedy_in_order(const std::vector<UsageRecord>& records) {
    ObjectAssignment a;
    std::set<std::pair<std::uint64_t, std::size_t>> free_objects;  // (size, id)
    ReleaseQueue in_use;
    for (const UsageRecord& r : records) {
        in_use.release_before(r.first_op, [&](std::size_t obj) { free_objects.emplace(a.object_sizes[obj], obj); });
        auto best = free_objects.end();
        auto larger = free_objects.lower_bound({r.bytes, 0});
        if (larger != free_objects.end()) best = larger;
        if (larger != free_objects.begin()) {
            // Largest smaller object; lowest id among those of that size.
            auto smaller = free_objects.lower_bound({std::prev(larger)->first, 0});
            if (best == free_objects.end() || r.bytes - smaller->first < best->first - r.bytes) best = smaller;
        }
        std::size_t obj = a.object_sizes.size();
        if (best == free_objects.end()) {
            a.object_sizes.push_back(r.bytes);
        } else {
            obj = best->second;
            free_objects.erase(best);
            a.object_sizes[obj] = std::max(a.object_sizes[obj], r.bytes);
        }
        a.object_ids.push_back(obj);
        in_use.hold(r.last_op, obj);
    }
    a.total = object_total(a.object_sizes);
    return a;
}

}  // namespace memsim::plan
