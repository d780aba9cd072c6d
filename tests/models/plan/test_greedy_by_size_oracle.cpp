// greedy_by_size places records through a gap index and lazy keys (issue 31, item 8: it
// was quadratic in records, and in memory). It must give exactly the object ids of the
// first, quadratic implementation (tests/oracles/greedy_by_size_quadratic.h), which
// follows the definition step by step: checked here on random record sets with many ties.
#include <catch2/catch.hpp>

#include <random>

#include "greedy_by_size_quadratic.h"
#include "models/plan/greedy_by_size.h"
#include "random_records.h"

using namespace memsim;
using namespace memsim::plan;

namespace {

// Records over a longer span with few size classes (equal sizes, equal distances).
std::vector<UsageRecord> wide_records(std::mt19937_64& rng) {
    std::uniform_int_distribution<int> count(1, 120), span(1, 200), cls(0, 3);
    const int n = count(rng), ops = span(rng);
    std::vector<UsageRecord> recs;
    for (int i = 0; i < n; ++i) {
        const int first = std::uniform_int_distribution<int>(0, ops - 1)(rng);
        const int last = std::min(ops - 1, first + std::uniform_int_distribution<int>(0, cls(rng) == 0 ? ops : 6)(rng));
        recs.push_back({i, std::uint64_t{16} << cls(rng), first, last});
    }
    std::stable_sort(recs.begin(), recs.end(), [](const UsageRecord& a, const UsageRecord& b) { return a.first_op < b.first_op; });
    return recs;
}

}  // namespace

TEST_CASE("greedy_by_size: the same objects as the quadratic definition on 3000 random record sets") {
    std::mt19937_64 rng(31);
    for (int round = 0; round < 3000; ++round) {
        const std::vector<UsageRecord> recs = round % 2 ? test::random_records(rng, 60) : wide_records(rng);
        INFO("round " << round << ", " << recs.size() << " records");
        REQUIRE(positional_maximums(recs) == test::quadratic_positional_maximums(recs));
        const ObjectAssignment fast = greedy_by_size_objects(recs);
        const ObjectAssignment slow = test::quadratic_greedy_by_size_objects(recs);
        REQUIRE(fast.object_ids == slow.object_ids);
        REQUIRE(fast.object_sizes == slow.object_sizes);
        REQUIRE(fast.total == slow.total);
        check_objects(recs, fast);
    }
}

TEST_CASE("greedy_by_size: a training-like chain of 4000 records, the same objects as the definition") {
    // Forward activations alive until their backward op: every record a position of its own
    // or sharing one, distances from 1 to the whole chain.
    std::mt19937_64 rng(7);
    const int n = 2000;
    std::vector<UsageRecord> recs;
    for (int i = 0; i < n; ++i) recs.push_back({i, std::uint64_t{64} << std::uniform_int_distribution<int>(0, 4)(rng), i, 2 * n - 1 - i});
    for (int i = 0; i < n; ++i) recs.push_back({n + i, std::uint64_t{64} << std::uniform_int_distribution<int>(0, 2)(rng), n + i, n + i + 1});
    std::stable_sort(recs.begin(), recs.end(), [](const UsageRecord& a, const UsageRecord& b) { return a.first_op < b.first_op; });
    const ObjectAssignment fast = greedy_by_size_objects(recs);
    const ObjectAssignment slow = test::quadratic_greedy_by_size_objects(recs);
    CHECK(fast.object_ids == slow.object_ids);
    CHECK(fast.total == slow.total);
}
