#include "models/plan/objects_to_offsets.h"

namespace memsim::plan {

OffsetAssignment objects_to_offsets(const ObjectAssignment& objects, std::uint64_t align) {
    std::vector<std::uint64_t> object_offsets;
    std::uint64_t end = 0;
    for (std::uint64_t size : objects.object_sizes) {
        const std::uint64_t start = align_up(end, align);
        object_offsets.push_back(start);
        end = start + size;
    }
    OffsetAssignment a;
    for (std::size_t obj : objects.object_ids) a.offsets.push_back(object_offsets[obj]);
    a.total = end;
    a.inplace_parent = objects.inplace_parent;
    return a;
}

}  // namespace memsim::plan
