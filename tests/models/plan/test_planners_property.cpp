// Property tests of the static planners on thousands of random record sets (seeded):
// checked by brute force here, independently of plan_types' own checkers.
#include <catch2/catch.hpp>

#include <random>
#include <sstream>

#include "models/plan/best_offsets.h"
#include "models/plan/greedy_best.h"
#include "models/plan/greedy_by_breadth.h"
#include "models/plan/greedy_by_size.h"
#include "models/plan/mxnet.h"
#include "models/plan/objects_to_offsets.h"
#include "models/plan/offsets_greedy_by_size.h"
#include "models/plan/peer_heuristic.h"
#include "models/plan/strategies.h"
#include "random_records.h"

using namespace memsim;
using namespace memsim::plan;

namespace {

using test::random_records;

std::string dump(const std::vector<UsageRecord>& recs) {
    std::ostringstream out;
    for (const UsageRecord& r : recs) out << "{" << r.bytes << " [" << r.first_op << "," << r.last_op << "]} ";
    return out.str();
}

bool meet(const UsageRecord& a, const UsageRecord& b) { return a.first_op <= b.last_op && b.first_op <= a.last_op; }

// Brute force: no two intersecting records share an object (in-place pairs excepted),
// every record fits its object, total = sum of sizes.
void require_objects_valid(const std::vector<UsageRecord>& recs, const ObjectAssignment& a, const std::string& name) {
    INFO(name);
    REQUIRE(a.object_ids.size() == recs.size());
    std::uint64_t sum = 0;
    for (std::uint64_t s : a.object_sizes) sum += s;
    REQUIRE(a.total == sum);
    for (std::size_t i = 0; i < recs.size(); ++i) {
        REQUIRE(a.object_ids[i] < a.object_sizes.size());
        REQUIRE(a.object_sizes[a.object_ids[i]] >= recs[i].bytes);
        for (std::size_t j = i + 1; j < recs.size(); ++j) {
            const bool inplace = !a.inplace_parent.empty() && (a.inplace_parent[i] == j || a.inplace_parent[j] == i);
            if (meet(recs[i], recs[j]) && !inplace) REQUIRE(a.object_ids[i] != a.object_ids[j]);
        }
    }
}

void require_offsets_valid(const std::vector<UsageRecord>& recs, const OffsetAssignment& a, std::uint64_t align,
                           const std::string& name) {
    INFO(name << " align " << align);
    REQUIRE(a.offsets.size() == recs.size());
    std::uint64_t end = 0;
    for (std::size_t i = 0; i < recs.size(); ++i) {
        REQUIRE(a.offsets[i] % align == 0);
        end = std::max(end, a.offsets[i] + recs[i].bytes);
        for (std::size_t j = i + 1; j < recs.size(); ++j) {
            const bool inplace = !a.inplace_parent.empty() && (a.inplace_parent[i] == j || a.inplace_parent[j] == i);
            if (!meet(recs[i], recs[j]) || inplace || recs[i].bytes == 0 || recs[j].bytes == 0) continue;
            const bool disjoint = a.offsets[i] + recs[i].bytes <= a.offsets[j] || a.offsets[j] + recs[j].bytes <= a.offsets[i];
            REQUIRE(disjoint);
        }
    }
    REQUIRE(a.total >= end);
}

// The live-bytes peak by brute force (per op).
std::uint64_t brute_peak(const std::vector<UsageRecord>& recs) {
    std::uint64_t peak = 0;
    for (int op = 0; op < 24; ++op) {
        std::uint64_t live = 0;
        for (const UsageRecord& r : recs)
            if (r.first_op <= op && op <= r.last_op) live += r.bytes;
        peak = std::max(peak, live);
    }
    return peak;
}

}  // namespace

TEST_CASE("planners property: every strategy on 2000 random record sets") {
    std::mt19937_64 rng(20261122);
    for (int set = 0; set < 2000; ++set) {
        const std::vector<UsageRecord> recs = random_records(rng);
        INFO("set " << set << ": " << dump(recs));
        const std::uint64_t bound = brute_peak(recs);
        REQUIRE(live_bytes_peak(recs) == bound);
        for (const StrategyInfo& s : strategies()) {
            if (s.name == "best_offsets") continue;  // its own test below (time cap)
            const std::uint64_t align = s.kind == PlanKind::Offsets ? (set % 3 == 0 ? 64 : set % 3 == 1 ? 8 : 1) : 1;
            PlanOptions o;
            o.align = align;
            const Plan p = make_plan(s.name, recs, o);
            if (s.kind == PlanKind::Objects) require_objects_valid(recs, p.objects, s.name);
            require_offsets_valid(recs, p.offsets, align, s.name);
            // In-place reuse (mxnet) shares bytes on purpose and may go below the bound.
            if (s.name != "mxnet") {
                INFO(s.name);
                REQUIRE(p.total >= bound);
            }
        }
        MxnetOptions no_inplace;
        no_inplace.inplace = false;
        const ObjectAssignment mx = mxnet(recs, no_inplace);
        require_objects_valid(recs, mx, "mxnet without in-place");
        REQUIRE(mx.total >= bound);
        const std::uint64_t by_size = greedy_by_size_objects(recs).total;
        const std::uint64_t by_breadth = greedy_by_breadth(recs).total;
        REQUIRE(greedy_best(recs).total == std::min(by_size, by_breadth));
        // objects_to_offsets keeps the objects' total when no alignment pads it.
        REQUIRE(objects_to_offsets(greedy_by_size_objects(recs)).total == by_size);
    }
}

TEST_CASE("planners property: best_offsets is valid and aligned and never above greedy offsets") {
    std::mt19937_64 rng(7);
    int strictly_better = 0;
    for (int set = 0; set < 1000; ++set) {
        const std::vector<UsageRecord> recs = random_records(rng);
        INFO("set " << set << ": " << dump(recs));
        const std::uint64_t align = set % 2 == 0 ? 1 : 16;
        BestOffsetsOptions o;
        o.align = align;
        o.rounds = 50;
        o.time_cap = std::chrono::milliseconds(1000);
        const OffsetAssignment b = best_offsets(recs, o);
        require_offsets_valid(recs, b, align, "best_offsets");
        const std::uint64_t greedy = greedy_by_size_offsets(recs, align).total;
        REQUIRE(b.total <= greedy);
        REQUIRE(b.total >= brute_peak(recs));
        PeerHeuristicOptions po;
        po.align = align;
        REQUIRE(b.total <= peer_heuristic(recs, po).total);
        if (b.total < greedy) ++strictly_better;
    }
    // It finds something better than greedy on a fair share of the sets.
    CHECK(strictly_better > 100);
}

TEST_CASE("planners property: peer_heuristic improvement never grows the total and is reproducible") {
    std::mt19937_64 rng(99);
    for (int set = 0; set < 300; ++set) {
        const std::vector<UsageRecord> recs = random_records(rng);
        INFO("set " << set << ": " << dump(recs));
        PeerHeuristicOptions o;
        o.iterations = 20;
        o.seed = static_cast<std::uint64_t>(set);
        const OffsetAssignment a = peer_heuristic(recs, o);
        require_offsets_valid(recs, a, 1, "peer_heuristic improved");
        REQUIRE(a.total <= peer_heuristic(recs).total);
        REQUIRE(peer_heuristic(recs, o).offsets == a.offsets);
    }
}
