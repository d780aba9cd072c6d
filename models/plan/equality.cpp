#include "models/plan/equality.h"

#include <unordered_map>

#include "models/plan/release_queue.h"

namespace memsim::plan {

ObjectAssignment equality(const std::vector<UsageRecord>& records) {
    ObjectAssignment a;
    std::unordered_map<std::uint64_t, std::vector<std::size_t>> free_by_size;  // stacks: back = most recent
    ReleaseQueue in_use;
    for (const UsageRecord& r : records) {
        in_use.release_before(r.first_op, [&](std::size_t obj) { free_by_size[a.object_sizes[obj]].push_back(obj); });
        std::vector<std::size_t>& same_size = free_by_size[r.bytes];
        std::size_t obj = a.object_sizes.size();
        if (same_size.empty()) {
            a.object_sizes.push_back(r.bytes);
        } else {
            obj = same_size.back();
            same_size.pop_back();
        }
        a.object_ids.push_back(obj);
        in_use.hold(r.last_op, obj);
    }
    a.total = object_total(a.object_sizes);
    return a;
}

}  // namespace memsim::plan
