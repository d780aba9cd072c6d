// check_objects and check_offsets find overlapping pairs through a tree of the alive ranges
// instead of visiting every pair alive together (issue 31, item 8: quadratic on a training
// log). They must still refuse exactly the plans the definition refuses: two records alive
// together sharing an object, or overlapping bytes, unless one is the other's in-place
// parent. Checked against every pair, on random plans where collisions are frequent.
#include <catch2/catch.hpp>

#include <random>

#include "models/plan/plan_types.h"
#include "random_records.h"

using namespace memsim;
using namespace memsim::plan;

namespace {

bool related(const std::vector<std::size_t>& parent, std::size_t i, std::size_t j) {
    return !parent.empty() && (parent[i] == j || parent[j] == i);
}

bool objects_valid_by_pairs(const std::vector<UsageRecord>& recs, const ObjectAssignment& a) {
    for (std::size_t i = 0; i < recs.size(); ++i)
        for (std::size_t j = i + 1; j < recs.size(); ++j)
            if (intervals_intersect(recs[i], recs[j]) && a.object_ids[i] == a.object_ids[j] &&
                !related(a.inplace_parent, i, j))
                return false;
    return true;
}

bool offsets_valid_by_pairs(const std::vector<UsageRecord>& recs, const OffsetAssignment& a) {
    for (std::size_t i = 0; i < recs.size(); ++i)
        for (std::size_t j = i + 1; j < recs.size(); ++j) {
            const bool overlap = recs[i].bytes > 0 && recs[j].bytes > 0 && a.offsets[i] < a.offsets[j] + recs[j].bytes &&
                                 a.offsets[j] < a.offsets[i] + recs[i].bytes;
            if (intervals_intersect(recs[i], recs[j]) && overlap && !related(a.inplace_parent, i, j)) return false;
        }
    return true;
}

std::vector<std::size_t> random_parents(std::mt19937_64& rng, std::size_t n) {
    std::vector<std::size_t> parent;
    if (rng() % 2) return parent;
    parent.assign(n, kNoRecord);
    for (std::size_t i = 1; i < n; ++i)
        if (rng() % 4 == 0) parent[i] = rng() % i;
    return parent;
}

}  // namespace

TEST_CASE("plan checks: check_objects refuses exactly the pairs the definition refuses, 3000 random plans") {
    std::mt19937_64 rng(8);
    int refused = 0;
    for (int round = 0; round < 3000; ++round) {
        const std::vector<UsageRecord> recs = test::random_records(rng, 30);
        ObjectAssignment a;
        const std::size_t objects = 1 + rng() % (3 * recs.size() + 1);
        a.object_sizes.assign(objects, 0);
        for (const UsageRecord& r : recs) {
            a.object_ids.push_back(rng() % objects);
            a.object_sizes[a.object_ids.back()] = std::max(a.object_sizes[a.object_ids.back()], r.bytes);
        }
        a.inplace_parent = random_parents(rng, recs.size());
        a.total = object_total(a.object_sizes);
        const bool valid = objects_valid_by_pairs(recs, a);
        INFO("round " << round);
        if (valid) {
            REQUIRE_NOTHROW(check_objects(recs, a));
        } else {
            ++refused;
            REQUIRE_THROWS_WITH(check_objects(recs, a), Catch::Contains("alive together but share object"));
        }
    }
    CHECK(refused > 500);  // both answers are exercised
    CHECK(refused < 2500);
}

TEST_CASE("plan checks: check_offsets refuses exactly the overlaps the definition refuses, 3000 random plans") {
    std::mt19937_64 rng(9);
    int refused = 0;
    for (int round = 0; round < 3000; ++round) {
        const std::vector<UsageRecord> recs = test::random_records(rng, 30);
        OffsetAssignment a;
        std::uint64_t total = 0;
        const std::uint64_t spread = 1 + rng() % 40000;
        for (const UsageRecord& r : recs) {
            a.offsets.push_back(rng() % spread);
            total = std::max(total, a.offsets.back() + r.bytes);
        }
        a.inplace_parent = random_parents(rng, recs.size());
        a.total = total;
        const bool valid = offsets_valid_by_pairs(recs, a);
        INFO("round " << round);
        if (valid) {
            REQUIRE_NOTHROW(check_offsets(recs, a));
        } else {
            ++refused;
            REQUIRE_THROWS_WITH(check_offsets(recs, a), Catch::Contains("are alive together and overlap"));
        }
    }
    CHECK(refused > 500);
    CHECK(refused < 2500);
}
