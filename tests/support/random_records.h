// Random usage records for planner property tests: in order of first use, up to `max_n`
// tensors over up to 24 operators, sizes from a few classes (so equal sizes, equal-cost
// ties and in-place candidates occur) or anything up to 4096.
#pragma once

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "models/plan/plan_types.h"

namespace memsim::test {

inline std::vector<UsageRecord> random_records(std::mt19937_64& rng, int max_n = 40) {
    std::uniform_int_distribution<int> count(1, max_n), ops(1, 24), kind(0, 2);
    const int n = count(rng), span = ops(rng);
    std::vector<UsageRecord> recs;
    for (int i = 0; i < n; ++i) {
        const int first = std::uniform_int_distribution<int>(0, span - 1)(rng);
        const int len = kind(rng) == 0 ? std::uniform_int_distribution<int>(0, span - 1 - first)(rng)
                                       : std::uniform_int_distribution<int>(0, std::min(2, span - 1 - first))(rng);
        const std::uint64_t size = kind(rng) == 0 ? std::uniform_int_distribution<std::uint64_t>(0, 4096)(rng)
                                                  : 64u << std::uniform_int_distribution<int>(0, 4)(rng);
        recs.push_back({i, size, first, first + len});
    }
    std::stable_sort(recs.begin(), recs.end(), [](const UsageRecord& a, const UsageRecord& b) { return a.first_op < b.first_op; });
    return recs;
}

}  // namespace memsim::test
