// Result types and shared helpers of the static planners (docs/planners.md).
// Every planner reads usage records (size + inclusive interval [first_op, last_op])
// in the order given and answers either an object assignment or offsets in one arena.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "models/workload/workload.h"

namespace memsim::plan {

inline constexpr std::size_t kNoRecord = static_cast<std::size_t>(-1);

// Tensors share an object only when their intervals are disjoint.
struct ObjectAssignment {
    std::vector<std::size_t> object_ids;     // per record
    std::vector<std::uint64_t> object_sizes; // per object
    std::uint64_t total = 0;                 // sum of object sizes
    // Per record: the record whose object it took in place (MXNet), else kNoRecord.
    // That pair is alive together at one op on purpose: the op writes over its input.
    std::vector<std::size_t> inplace_parent;
    // How the planner got there when it chose between variants (mincostflow), else empty.
    std::string note;
};

// One arena; a tensor occupies [offset, offset + size).
struct OffsetAssignment {
    std::vector<std::uint64_t> offsets;  // per record
    std::uint64_t total = 0;             // max end
    std::vector<std::size_t> inplace_parent;  // as in ObjectAssignment (empty: none)
};

[[nodiscard]] inline bool intervals_intersect(const UsageRecord& a, const UsageRecord& b) {
    return a.first_op <= b.last_op && b.first_op <= a.last_op;
}

[[nodiscard]] inline std::uint64_t align_up(std::uint64_t value, std::uint64_t align) {
    return align <= 1 ? value : (value + align - 1) / align * align;
}

[[nodiscard]] inline std::uint64_t object_total(const std::vector<std::uint64_t>& sizes) {
    std::uint64_t total = 0;
    for (std::uint64_t s : sizes) total += s;
    return total;
}

// Number of operators the records span (max last_op + 1).
[[nodiscard]] int op_span(const std::vector<UsageRecord>& records);
// Sum of the sizes alive at each operator (the breadth of greedy_by_breadth, docs/planners.md).
[[nodiscard]] std::vector<std::uint64_t> live_bytes_per_op(const std::vector<UsageRecord>& records);
// Peak of live bytes: the lower bound for every planner.
[[nodiscard]] std::uint64_t live_bytes_peak(const std::vector<UsageRecord>& records);

// Throw std::logic_error naming the two records when two intersecting intervals share an
// object (in-place pairs excepted) or overlap in bytes, or when an offset is not aligned.
void check_objects(const std::vector<UsageRecord>& records, const ObjectAssignment& a);
void check_offsets(const std::vector<UsageRecord>& records, const OffsetAssignment& a, std::uint64_t align = 1);

}  // namespace memsim::plan
