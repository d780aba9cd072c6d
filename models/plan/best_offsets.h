// `best_offsets` (our own, beyond TFLite): offsets in one arena, searching for a lower
// total than greedy offsets.
//  1. Several orderings (size desc; size desc then longer lifetime; longer lifetime
//     first; size x lifetime; operators by decreasing breadth and their tensors by
//     size), each placed by two rules (TFLite's best-fitting gap among the tensors
//     whose intervals intersect, and the peer planner's per-operator gaps). Keep the
//     smallest total.
//  2. Local search from there: the tensors that end at the arena's top are the ones
//     holding the total up; move one of them (seeded choice) to an earlier position of
//     the order, re-place, keep the order if the total did not grow (equal totals are
//     accepted to cross plateaus), remember the best. Stops after `rounds` rounds, at
//     the live-bytes lower bound, or at the time cap.
// Deterministic for a given seed as long as the time cap is not what stops it (the
// default cap is a safety net far above what 100 rounds take on the shared profiles).
#pragma once

#include <chrono>

#include "models/plan/plan_types.h"

namespace memsim::plan {

struct BestOffsetsOptions {
    std::uint64_t align = 1;
    std::uint64_t seed = 1;
    int rounds = 100;
    std::chrono::milliseconds time_cap{1000};  // a safety net: normally `rounds` stops it
};

struct BestOffsetsStats {
    std::string start;           // ordering + placement that gave the starting point
    std::uint64_t start_total = 0;
    int rounds_run = 0;
    int improvements = 0;
};

OffsetAssignment best_offsets(const std::vector<UsageRecord>& records, const BestOffsetsOptions& options = {},
                              BestOffsetsStats* stats = nullptr);

}  // namespace memsim::plan
