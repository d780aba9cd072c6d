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
// One entry per operator: for tests and dense records; the planners use live_stretches.
[[nodiscard]] std::vector<std::uint64_t> live_bytes_per_op(const std::vector<UsageRecord>& records);

// The planners' memory follows the number of records, never the largest op index (a
// records file may say `last: 100000000`): between two operators where a record starts
// or ends, the records alive do not change, so per-operator sweeps run over those
// operators only.
struct LiveStretch {
    int op;              // a first_op, or the op after a last_op; the stretch runs to the next one
    std::uint64_t bytes; // alive from op to the next stretch
};
// In increasing order of op; every first_op starts a stretch.
[[nodiscard]] std::vector<LiveStretch> live_stretches(const std::vector<UsageRecord>& records);
// The distinct first_op and last_op values, increasing.
[[nodiscard]] std::vector<int> endpoint_ops(const std::vector<UsageRecord>& records);
// Record indices sorted by `key` (stable: record order within a key).
[[nodiscard]] std::vector<std::size_t> records_by(const std::vector<UsageRecord>& records, int UsageRecord::*key);
// The order in which greedy_by_breadth takes the records (docs/planners.md): operators by
// decreasing breadth (ties: lower op), at each the records alive there not yet taken,
// largest first (ties: record order). Each record is taken at the first of its stretches
// in that order, so this sorts by that stretch's rank, then by size: O(n log n).
[[nodiscard]] std::vector<std::size_t> breadth_first_order(const std::vector<UsageRecord>& records);
// Peak of live bytes: the lower bound for every planner.
[[nodiscard]] std::uint64_t live_bytes_peak(const std::vector<UsageRecord>& records);

// Throw std::logic_error naming the two records when two intersecting intervals share an
// object (in-place pairs excepted) or overlap in bytes, or when an offset is not aligned.
void check_objects(const std::vector<UsageRecord>& records, const ObjectAssignment& a);
void check_offsets(const std::vector<UsageRecord>& records, const OffsetAssignment& a, std::uint64_t align = 1);

}  // namespace memsim::plan
