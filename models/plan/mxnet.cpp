#include "models/plan/mxnet.h"

#include <algorithm>
#include <map>
#include <numeric>

namespace memsim::plan {

ObjectAssignment mxnet(const std::vector<UsageRecord>& records, const MxnetOptions& options) {
    const std::size_t n = records.size();
    // The operators where a record is born or dies, each with those records in record order
    // (nothing happens at the others; memory follows the records, not the op indices).
    const std::vector<std::size_t> by_first = records_by(records, &UsageRecord::first_op);
    const std::vector<std::size_t> by_last = records_by(records, &UsageRecord::last_op);
    std::size_t next_born = 0, next_dying = 0;

    ObjectAssignment a;
    a.object_ids.assign(n, kNoRecord);
    a.inplace_parent.assign(n, kNoRecord);
    // Free objects by size; equal sizes in the order they were freed (multimap keeps
    // insertion order among equal keys).
    std::multimap<std::uint64_t, std::size_t> free_objects;
    std::vector<bool> object_taken_inplace(n, false);  // per record: its object went to an output

    auto new_object = [&](std::uint64_t size) {
        a.object_sizes.push_back(size);
        return a.object_sizes.size() - 1;
    };
    for (int op : endpoint_ops(records)) {
        std::vector<std::size_t> born, dying;
        for (; next_born < n && records[by_first[next_born]].first_op == op; ++next_born) born.push_back(by_first[next_born]);
        for (; next_dying < n && records[by_last[next_dying]].last_op == op; ++next_dying) dying.push_back(by_last[next_dying]);
        std::vector<std::size_t> rest;
        // 1. In-place: an input that dies here, of the same size.
        for (std::size_t i : born) {
            std::size_t parent = kNoRecord;
            if (options.inplace)
                for (std::size_t j : dying)
                    if (records[j].first_op < op && !object_taken_inplace[j] && records[j].bytes == records[i].bytes) {
                        parent = j;
                        break;
                    }
            if (parent == kNoRecord) {
                rest.push_back(i);
                continue;
            }
            object_taken_inplace[parent] = true;
            a.object_ids[i] = a.object_ids[parent];
            a.inplace_parent[i] = parent;
        }
        // 2. The others, largest first, from the free objects within the match range.
        std::stable_sort(rest.begin(), rest.end(),
                         [&](std::size_t x, std::size_t y) { return records[x].bytes > records[y].bytes; });
        for (std::size_t i : rest) {
            const std::uint64_t size = records[i].bytes;
            std::size_t obj = kNoRecord;
            if (options.match_range > 0 && !free_objects.empty()) {
                const std::uint64_t low = size / options.match_range;
                const std::uint64_t high =
                    size > UINT64_MAX / options.match_range ? UINT64_MAX : size * options.match_range;
                auto mid = free_objects.lower_bound(size);
                auto pick = free_objects.end();
                if (mid != free_objects.end() && mid->first <= high) {
                    pick = mid;  // smallest >= size, the first freed of that size
                } else if (mid != free_objects.begin()) {
                    auto smaller = std::prev(mid);
                    if (smaller->first >= low) pick = free_objects.lower_bound(smaller->first);
                }
                if (pick != free_objects.end()) {
                    obj = pick->second;
                    free_objects.erase(pick);
                    a.object_sizes[obj] = std::max(a.object_sizes[obj], size);
                }
            }
            if (obj == kNoRecord) obj = new_object(size);
            a.object_ids[i] = obj;
        }
        // 3. Objects whose tenant dies here go back to the free list (in record order),
        //    unless an output took them in place (then the output is the tenant now).
        for (std::size_t j : dying)
            if (!object_taken_inplace[j]) free_objects.emplace(a.object_sizes[a.object_ids[j]], a.object_ids[j]);
    }
    a.total = object_total(a.object_sizes);
    return a;
}

}  // namespace memsim::plan
