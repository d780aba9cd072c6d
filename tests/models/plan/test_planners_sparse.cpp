// The planners' memory follows the number of records, not the largest op index (issue 18):
// they sweep only the operators where a record starts or ends. Checked against the
// per-operator definitions (written out densely here) on random records, and on records
// whose op indices reach the int range, which a per-operator sweep cannot allocate.
#include <catch2/catch.hpp>

#include <algorithm>
#include <climits>
#include <numeric>
#include <random>

#include "models/plan/best_offsets.h"
#include "models/plan/greedy_by_breadth.h"
#include "models/plan/greedy_by_size.h"
#include "models/plan/mxnet.h"
#include "random_records.h"

using namespace memsim;
using namespace memsim::plan;

namespace {

// greedy_by_breadth's order as docs/planners.md defines it: every operator by decreasing
// breadth (ties: lower op), at each the untaken records alive there, largest first.
std::vector<std::size_t> dense_breadth_order(const std::vector<UsageRecord>& recs) {
    const std::vector<std::uint64_t> breadth = live_bytes_per_op(recs);
    std::vector<int> ops(breadth.size());
    std::iota(ops.begin(), ops.end(), 0);
    std::stable_sort(ops.begin(), ops.end(), [&](int x, int y) { return breadth[x] > breadth[y]; });
    std::vector<std::size_t> by_size(recs.size());
    std::iota(by_size.begin(), by_size.end(), 0);
    std::stable_sort(by_size.begin(), by_size.end(), [&](std::size_t x, std::size_t y) { return recs[x].bytes > recs[y].bytes; });
    std::vector<std::size_t> order;
    std::vector<bool> taken(recs.size(), false);
    for (int op : ops)
        for (std::size_t i : by_size)
            if (!taken[i] && recs[i].first_op <= op && op <= recs[i].last_op) {
                taken[i] = true;
                order.push_back(i);
            }
    return order;
}

std::vector<UsageRecord> spread(std::vector<UsageRecord> recs, int factor, int shift) {
    for (UsageRecord& r : recs) {
        r.first_op = r.first_op * factor + shift;
        r.last_op = r.last_op * factor + shift;
    }
    return recs;
}

}  // namespace

TEST_CASE("planners: live stretches and the breadth order equal their per-operator definitions") {
    std::mt19937_64 rng(18);
    for (int round = 0; round < 2000; ++round) {
        const std::vector<UsageRecord> recs = test::random_records(rng);
        const std::vector<std::uint64_t> live = live_bytes_per_op(recs);
        for (const LiveStretch& s : live_stretches(recs))
            if (s.op < static_cast<int>(live.size())) REQUIRE(s.bytes == live[s.op]);
        REQUIRE(live_bytes_peak(recs) == *std::max_element(live.begin(), live.end()));
        REQUIRE(breadth_first_order(recs) == dense_breadth_order(recs));
    }
}

TEST_CASE("planners: spreading the op indices apart changes no object plan") {
    // Which records meet, and the order of their gaps, do not change when every index is
    // multiplied and shifted; greedy_by_breadth, greedy_by_size and mxnet read nothing else.
    std::mt19937_64 rng(1818);
    for (int round = 0; round < 500; ++round) {
        const std::vector<UsageRecord> recs = test::random_records(rng);
        const std::vector<UsageRecord> far = spread(recs, 1000003, 7);
        REQUIRE(positional_maximums(far) == positional_maximums(recs));
        REQUIRE(greedy_by_breadth(far).object_ids == greedy_by_breadth(recs).object_ids);
        REQUIRE(greedy_by_size_objects(far).object_ids == greedy_by_size_objects(recs).object_ids);
        const ObjectAssignment a = mxnet(recs), b = mxnet(far);
        REQUIRE(b.object_ids == a.object_ids);
        REQUIRE(b.inplace_parent == a.inplace_parent);
    }
}

TEST_CASE("planners: op indices at the top of the int range plan in memory proportional to the records") {
    // A sweep over every operator would need tens of GB here (2^31 operators).
    const int top = INT_MAX - 1;
    const std::vector<UsageRecord> recs = {{0, 16, 0, 1}, {1, 8, 1, top}, {2, 4, top, top}};
    CHECK(live_bytes_peak(recs) == 24);
    CHECK(breadth_first_order(recs) == std::vector<std::size_t>{0, 1, 2});
    CHECK(greedy_by_breadth(recs).total == 24);
    CHECK(greedy_by_size_objects(recs).total == 24);
    CHECK(mxnet(recs).total == 24);
    CHECK(best_offsets(recs, {}).total == 24);
}
