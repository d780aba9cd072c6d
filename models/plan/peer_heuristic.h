// `peer_heuristic` (docs/planners.md): the reference code's own offset planner.
// Tensors by decreasing size, then longer lifetime first, then earlier start (then
// record order). Each looks at every operator of its lifetime: there, the placed tensors
// alive at that operator leave gaps (before the first, between neighbours) and an open
// tail after the last (a whole open arena when nothing is placed there). Candidates are
// the gaps at least as large as the tensor, by (gap length, start): the smallest gap
// first, then the lowest address, open tails last. With align > 1 every candidate start
// is rounded up to it (its gap shrinks accordingly). The tensor goes to the first candidate
// start where it overlaps no placed tensor alive anywhere in its lifetime.
// `front_gap = false` is the reference's Python planner (bufferAllocator.heuristic_alloc),
// which never offers the gap before the first placed tensor at an operator (only a whole
// empty operator offers address 0).
// Optional improvement: `iterations` rounds, each swapping a few random pairs of the
// order (seeded std::mt19937_64) and keeping the new order only if the total shrinks.
#pragma once

#include "models/plan/plan_types.h"

namespace memsim::plan {

// The reference code rounds every size up to this before planning (MNN's alignment).
inline constexpr std::uint64_t kReferenceSizeAlign = 64;

struct PeerHeuristicOptions {
    int iterations = 0;           // randomised improvement rounds (0: the greedy alone)
    std::uint64_t seed = 1;
    std::size_t swaps_per_round = 2;
    std::uint64_t align = 1;      // candidate starts aligned up to this
    bool front_gap = true;        // offer the gap before the first placed tensor
};

OffsetAssignment peer_heuristic(const std::vector<UsageRecord>& records, const PeerHeuristicOptions& options = {});

// The placement for an explicit order (exposed for tests and best_offsets).
OffsetAssignment peer_place_in_order(const std::vector<UsageRecord>& records, const std::vector<std::size_t>& order,
                                     std::uint64_t align = 1, bool front_gap = true);

// The reference order: size desc, lifetime desc, first_op asc, record index asc.
std::vector<std::size_t> peer_order(const std::vector<UsageRecord>& records);

}  // namespace memsim::plan
