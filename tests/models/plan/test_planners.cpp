// Static planners (docs/planners.md) on two small record sets worked out by hand.
// Records are {tensor, bytes, first_op, last_op}; intervals are inclusive. An object
// is free for record i when its last tenant has last_op < first_op(i).
#include <catch2/catch.hpp>

#include <vector>

#include "models/plan/best_offsets.h"
#include "models/plan/equality.h"
#include "models/plan/greedy_best.h"
#include "models/plan/greedy_by_breadth.h"
#include "models/plan/greedy_by_size.h"
#include "models/plan/greedy_in_order.h"
#include "models/plan/mincostflow.h"
#include "models/plan/mxnet.h"
#include "models/plan/naive.h"
#include "models/plan/objects_to_offsets.h"
#include "models/plan/offsets_greedy_by_size.h"
#include "models/plan/peer_heuristic.h"
#include "models/plan/planner_allocator.h"
#include "models/plan/strategies.h"
#include "file_support.h"
#include "test_support.h"

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

using namespace memsim;
using namespace memsim::plan;
using Ids = std::vector<std::size_t>;
using Sizes = std::vector<std::uint64_t>;

namespace {

// The chain: each tensor is made by one op and read by the next.
//   r0 32 B [0,1]   r1 64 B [1,2]   r2 24 B [2,3]   r3 64 B [3,4]   r4 24 B [4,5]
// Live bytes per op: 32, 96, 88, 88, 88, 24 -> lower bound 96.
std::vector<UsageRecord> chain() {
    return {{0, 32, 0, 1}, {1, 64, 1, 2}, {2, 24, 2, 3}, {3, 64, 3, 4}, {4, 24, 4, 5}};
}

// The branching set: a feeds two branches (b, then c with a scratch s), which join in d;
// e is made from d, which dies there (an in-place candidate).
//   r0 a 40 B [0,2]   r1 b 40 B [1,3]   r2 c 20 B [2,3]   r3 s 30 B [2,2]
//   r4 d 35 B [3,4]   r5 e 35 B [4,5]
// Live bytes per op: 40, 80, 130 (a b c s), 95 (b c d), 70 (d e), 35 -> lower bound 130.
std::vector<UsageRecord> branching() {
    return {{0, 40, 0, 2}, {1, 40, 1, 3}, {2, 20, 2, 3}, {3, 30, 2, 2}, {4, 35, 3, 4}, {5, 35, 4, 5}};
}

void check_plan(const std::vector<UsageRecord>& records, const ObjectAssignment& a, const Ids& ids, const Sizes& sizes,
                std::uint64_t total) {
    CHECK(a.object_ids == ids);
    CHECK(a.object_sizes == sizes);
    CHECK(a.total == total);
    CHECK_NOTHROW(check_objects(records, a));
}

}  // namespace

TEST_CASE("planners: lower bound and breadth of the hand sets") {
    CHECK(live_bytes_per_op(chain()) == Sizes{32, 96, 88, 88, 88, 24});
    CHECK(live_bytes_peak(chain()) == 96);
    CHECK(live_bytes_per_op(branching()) == Sizes{40, 80, 130, 95, 70, 35});
    CHECK(live_bytes_peak(branching()) == 130);
}

TEST_CASE("planners: naive on the chain and the branching set") {
    // One object per record, sized by it.
    check_plan(chain(), naive(chain()), {0, 1, 2, 3, 4}, {32, 64, 24, 64, 24}, 208);
    check_plan(branching(), naive(branching()), {0, 1, 2, 3, 4, 5}, {40, 40, 20, 30, 35, 35}, 200);
}

TEST_CASE("planners: equality on the chain and the branching set") {
    // Chain: r0 -> obj0 (32), r1 -> obj1 (64, r0 still alive at op 1). At op 2 obj0 is
    // free but 32 != 24: r2 -> new obj2. At op 3 obj1 (r1 ended at 2) is free and 64 B:
    // r3 takes it. At op 4 obj2 (r2 ended at 3) is free and 24 B: r4 takes it.
    check_plan(chain(), equality(chain()), {0, 1, 2, 1, 2}, {32, 64, 24}, 120);
    // Branching: a, b, c, s are alive together at op 2: four objects. At op 3 the free
    // objects are 40 (a) and 30 (s), none of 35 B: d -> new obj4. At op 4 b's and c's
    // objects come free (40, 20), d's is still held: e -> new obj5. Equality cannot
    // share anything here, it is as bad as naive.
    check_plan(branching(), equality(branching()), {0, 1, 2, 3, 4, 5}, {40, 40, 20, 30, 35, 35}, 200);
}

TEST_CASE("planners: greedy_in_order on the chain and the branching set") {
    // Chain: r2 (24) finds obj0 (32) free: the smallest >= 24. r3 finds obj1 (64) free
    // at op 3. r4 (24) finds obj0 free again (r2 ended at 3).
    check_plan(chain(), greedy_in_order(chain()), {0, 1, 0, 1, 0}, {32, 64}, 96);
    // Branching: a, b, c, s get obj0..obj3 (all alive at op 2). d (35) at op 3 sees
    // obj3 (30, waste 5) and obj0 (40, waste 5): a tie goes to the larger, obj0. e (35)
    // at op 4 sees obj1 (40, b ended at 3), obj3 (30), obj2 (20): again 40 vs 30 tie ->
    // obj1. No object grows.
    check_plan(branching(), greedy_in_order(branching()), {0, 1, 2, 3, 0, 1}, {40, 40, 20, 30}, 130);
}

TEST_CASE("planners: greedy_by_breadth on the chain and the branching set") {
    // Chain: breadth 32, 96, 88, 88, 88, 24. Op 1 first (96): r1 (64) -> obj0, r0 (32)
    // intersects r1 -> obj1. Then op 2 (88, lowest index of the ties): r2 (24) cannot
    // share obj0 (r1 alive at 2), obj1 (r0 ended at 1) fits -> obj1. Op 3: r3 (64):
    // obj0 (tenant r1 [1,2]) is compatible and the smallest >= 64. Op 4: r4 (24): obj0
    // holds r3 [3,4]; obj1 holds r0 [0,1] and r2 [2,3], compatible -> obj1.
    check_plan(chain(), greedy_by_breadth(chain()), {1, 0, 1, 0, 1}, {64, 32}, 96);
    // Branching: breadth 40, 80, 130, 95, 70, 35. Op 2 first, by size a, b (40, record
    // order), s (30), c (20): all alive together -> obj0 a, obj1 b, obj2 s, obj3 c.
    // Op 3: d (35): compatible objects obj0 (a [0,2], 40) and obj2 (s [2,2], 30); the
    // smallest >= 35 is obj0. Op 4: e (35): obj0 now holds d [3,4] (intersects);
    // obj1 (b ended at 3, 40), obj2 (30), obj3 (20) are compatible; smallest >= 35: obj1.
    check_plan(branching(), greedy_by_breadth(branching()), {0, 1, 3, 2, 0, 1}, {40, 40, 30, 20}, 130);
}

TEST_CASE("planners: greedy_by_size objects on the chain and the branching set") {
    // Chain: per op the sizes alive, sorted: {32} {64,32} {64,24} {64,24} {64,24} {24}
    // -> positional maximums pm = [64, 32]. Positions: 64 -> 0, 32 -> 1, 24 -> 1.
    CHECK(positional_maximums(chain()) == Sizes{64, 32});
    // Position 0 first: r1 (lowest index of the two 64s) -> new obj0. r3 [3,4] is at
    // distance 1 from r1 [1,2] -> obj0. Position 1: nothing compatible for r0, r2, r4
    // (obj0 spans [1,4]); largest first, r0 (32) -> new obj1. Then r2 (distance 1 to r0)
    // -> obj1, then r4 (distance 1 to r2) -> obj1.
    check_plan(chain(), greedy_by_size_objects(chain()), {1, 0, 1, 0, 1}, {64, 32}, 96);
    // Branching: sizes alive {40} {40,40} {40,40,30,20} {40,35,20} {35,35} {35}
    // -> pm = [40, 40, 30, 20]. Positions: 40 -> 1, 35 -> 1, 30 -> 2, 20 -> 3.
    CHECK(positional_maximums(branching()) == Sizes{40, 40, 30, 20});
    // Position 1 holds a, b, d, e. No object yet: largest, lowest index: a -> obj0.
    // Now d is at distance 1 from obj0 (a ends at 2, d starts at 3), e at distance 2,
    // b intersects a: d goes first -> obj0. e now intersects d, so b and e have no
    // compatible object: the larger, b -> new obj1; e at distance 1 from b -> obj1.
    // Position 2: s intersects everything placed -> new obj2; position 3: c -> obj3.
    check_plan(branching(), greedy_by_size_objects(branching()), {0, 1, 3, 2, 0, 1}, {40, 40, 30, 20}, 130);
}

TEST_CASE("planners: greedy_best keeps greedy_by_size unless breadth is strictly smaller") {
    // Both reach 96 and 130 here: the tie keeps greedy_by_size's answer.
    check_plan(chain(), greedy_best(chain()), {1, 0, 1, 0, 1}, {64, 32}, 96);
    check_plan(branching(), greedy_best(branching()), {0, 1, 3, 2, 0, 1}, {40, 40, 30, 20}, 130);
    // A set where breadth wins: x 10 B [0,0], y 20 B [1,1], z 10 B [1,1].
    // greedy_by_size: pm = [20, 10]; positions y 0, x 1, z 1. y -> obj0; then x (distance
    // 1 to y) -> obj0 (x and z are both at position 1; x is compatible, z is not), z ->
    // obj1: 20 + 10 = 30. greedy_by_breadth: op 1 (30) first: y -> obj0 (20), z -> obj1
    // (10); op 0: x (10) fits obj0 and obj1; smallest >= 10 is obj1 -> 20 + 10 = 30 as
    // well. Equal: by_size's ids stay.
    const std::vector<UsageRecord> small{{0, 10, 0, 0}, {1, 20, 1, 1}, {2, 10, 1, 1}};
    const ObjectAssignment best = greedy_best(small);
    CHECK(best.total == 30);
    CHECK(best.object_ids == greedy_by_size_objects(small).object_ids);
    CHECK(greedy_by_breadth(small).object_ids == Ids{1, 0, 1});
}

TEST_CASE("planners: mincostflow on the chain and the branching set") {
    // Chain: r0 and r1 open objects (cost 32 + 64). The zero-cost hand-overs are unique:
    // r0 -> r2 (24 <= 32), r1 -> r3 (64 <= 64), r2 -> r4 (24 <= 24); any other choice
    // costs growth or a new object. Objects are numbered in order of first_op.
    check_plan(chain(), mincostflow(chain()), {0, 1, 0, 1, 0}, {32, 64}, 96);
    // Branching: a, b, c, s start before anything is free: four objects (130). At op 3
    // d (35) can take a (40, cost 0) or s (30, growth 5): a. At op 4 e (35) can take b
    // (40, cost 0), s (growth 5) or c (growth 15): b.
    check_plan(branching(), mincostflow(branching()), {0, 1, 2, 3, 0, 1}, {40, 40, 20, 30}, 130);
}

TEST_CASE("planners: mxnet on the chain and the branching set") {
    // Chain: no output has the size of the input dying at its op (64 vs 32, 24 vs 64,
    // ...). Freed objects: obj0 (32) after op 1 -> r2 (smallest >= 24); obj1 after op 2
    // -> r3; obj0 after op 3 -> r4.
    ObjectAssignment chain_plan = mxnet(chain());
    check_plan(chain(), chain_plan, {0, 1, 0, 1, 0}, {32, 64}, 96);
    CHECK(chain_plan.inplace_parent == Ids(5, kNoRecord));
    // Branching: op 2 makes c (20) and s (30); a dies there but is 40 B: no in-place;
    // largest first, s -> new obj2, c -> new obj3. After op 2, a (obj0) and s (obj2) are
    // free. Op 3: d (35): b and c die here but are 40 and 20 B; free blocks: the
    // smallest >= 35 is obj0 (40). Op 4: e (35) takes d's object in place (d dies at 4,
    // same size): e -> obj0, in-place parent r4. So obj0 holds a, d, e.
    ObjectAssignment branch_plan = mxnet(branching());
    check_plan(branching(), branch_plan, {0, 1, 3, 2, 0, 0}, {40, 40, 30, 20}, 130);
    CHECK(branch_plan.inplace_parent == Ids{kNoRecord, kNoRecord, kNoRecord, kNoRecord, kNoRecord, 4});
    // match_range 0: freed blocks are never reused, d opens obj4 (35); e still in place.
    MxnetOptions no_reuse;
    no_reuse.match_range = 0;
    check_plan(branching(), mxnet(branching(), no_reuse), {0, 1, 3, 2, 4, 4}, {40, 40, 30, 20, 35}, 165);
    // Without in-place, e looks at the free blocks after op 3: obj1 (b, 40), obj3 (c, 20),
    // obj2 (s, 30): the smallest >= 35 is obj1.
    MxnetOptions no_inplace;
    no_inplace.inplace = false;
    check_plan(branching(), mxnet(branching(), no_inplace), {0, 1, 3, 2, 0, 1}, {40, 40, 30, 20}, 130);
    // match_range 2: for d (35) the window is [17, 70]; 40 is inside. For a 100 B
    // tensor, a free 40 B block is outside [50, 200]: a new object.
    const std::vector<UsageRecord> far{{0, 40, 0, 0}, {1, 100, 1, 1}};
    MxnetOptions narrow;
    narrow.match_range = 2;
    check_plan(far, mxnet(far, narrow), {0, 1}, {40, 100}, 140);
    check_plan(far, mxnet(far), {0, 0}, {100}, 100);  // range 16: [6, 1600] -> grows to 100
}

TEST_CASE("planners: offsets greedy_by_size on the chain and the branching set") {
    // Chain, by size (stable): r1, r3, r0, r2, r4. r1 -> 0. r3 does not meet r1 -> 0.
    // r0 meets r1 [0,64): no gap before it -> 64. r2 meets r1 and r3 -> 64. r4 meets r3
    // -> 64. Total = r0's end 96, the bound.
    OffsetAssignment c = greedy_by_size_offsets(chain());
    CHECK(c.offsets == Sizes{64, 0, 64, 0, 64});
    CHECK(c.total == 96);
    // Branching, by size: a, b, d, e, s, c. a -> 0; b meets a -> 40. d [3,4] meets only
    // b [40,80): the gap [0,40) holds 35 -> 0. e [4,5] meets d [0,35) -> 35. s [2,2]
    // meets a [0,40) and b [40,80): no gap -> 80. c [2,3] meets a, d, b, s: the gaps
    // are empty (d sits inside a's range) -> 110. Total 130, the bound.
    OffsetAssignment b = greedy_by_size_offsets(branching());
    CHECK(b.offsets == Sizes{0, 40, 110, 80, 0, 35});
    CHECK(b.total == 130);
    CHECK_NOTHROW(check_offsets(branching(), b));
    // Aligned to 64: b starts after a at align(40) = 64; d fits the gap [0,64) below b;
    // e after d at align(35) = 64 (b is not alive at 4); s after b at align(104) = 128;
    // c after s at align(158) = 192. Total 192 + 20 = 212.
    OffsetAssignment b64 = greedy_by_size_offsets(branching(), 64);
    CHECK(b64.offsets == Sizes{0, 64, 192, 128, 0, 64});
    CHECK(b64.total == 212);
    CHECK_NOTHROW(check_offsets(branching(), b64, 64));
}

TEST_CASE("planners: objects_to_offsets lays objects end to end") {
    // greedy_by_size's chain objects: obj0 (64) at 0, obj1 (32) at 64.
    OffsetAssignment c = objects_to_offsets(greedy_by_size_objects(chain()));
    CHECK(c.offsets == Sizes{64, 0, 64, 0, 64});
    CHECK(c.total == 96);
    // Branching objects 40, 40, 30, 20 aligned to 64: at 0, 64, 128, 192; total 212.
    OffsetAssignment b = objects_to_offsets(greedy_by_size_objects(branching()), 64);
    CHECK(b.offsets == Sizes{0, 64, 192, 128, 0, 64});
    CHECK(b.total == 212);
}

TEST_CASE("planners: peer_heuristic on the chain and the branching set") {
    // Order: size desc, lifetime desc, earlier start: the chain gives r1, r3, r0, r2, r4
    // (as greedy), the branching set a, b, d, e, s, c.
    CHECK(peer_order(chain()) == Ids{1, 3, 0, 2, 4});
    CHECK(peer_order(branching()) == Ids{0, 1, 4, 5, 3, 2});
    // Chain: r0 sees at op 0 an empty arena (0, open) and at op 1 r1's tail (64, open);
    // 0 collides with r1, so 64. Same for r2 and r4.
    OffsetAssignment c = peer_heuristic(chain());
    CHECK(c.offsets == Sizes{64, 0, 64, 0, 64});
    CHECK(c.total == 96);
    // Branching: d [3,4] sees at op 3 the gap [0,40) below b (length 40 >= 35), taken
    // before any open tail -> 0. c [2,3]: at op 3 (a and s gone, d in) the gap [0,40)
    // appears (length 40, the best fit) but 0 collides with a, alive at op 2; the tails
    // 80 (collides with s) and 110 follow -> 110.
    OffsetAssignment b = peer_heuristic(branching());
    CHECK(b.offsets == Sizes{0, 40, 110, 80, 0, 35});
    CHECK(b.total == 130);
}

TEST_CASE("planners: peer_heuristic takes the smallest gap over the lowest address") {
    // Distinct sizes, so the order is by size: A 50 [0,3], B 45 [0,1], C 40 [0,3],
    // D 35 [0,1], E 30 [0,3], F 25 [2,3].
    // A -> 0. B meets A -> open tail 50. C: ops 0-1 offer the tail 95, ops 2-3 the tail
    // 50; open tails by address: 50 collides with B (alive at 0-1) -> 95. D: tail 135.
    // E: ops 2-3 offer the gap [50,95) (45 B), taken first, but B is there at 0-1; the
    // tails 135 (D) and 170 follow -> 170. F [2,3] sees A [0,50), C [95,135), E [170,200)
    // (B and D are gone): gaps of 45 B at 50 and 35 B at 135; the smaller wins -> 135.
    const std::vector<UsageRecord> recs{{0, 50, 0, 3}, {1, 45, 0, 1}, {2, 40, 0, 3},
                                        {3, 35, 0, 1}, {4, 30, 0, 3}, {5, 25, 2, 3}};
    OffsetAssignment a = peer_heuristic(recs);
    CHECK(a.offsets == Sizes{0, 50, 95, 135, 170, 135});
    CHECK(a.total == 200);
    CHECK_NOTHROW(check_offsets(recs, a));
    // TFLite's rule sees the same two gaps in the union of A, C, E: the same answer here.
    CHECK(greedy_by_size_offsets(recs).offsets == a.offsets);
}

TEST_CASE("planners: peer_heuristic without the front gap, and the reference's Python variant") {
    // A 30 B [0,0], B 20 B [0,1], C 10 B [1,1]; live bytes 50, 30: bound 50.
    // A -> 0. B: op 0 offers A's tail 30, op 1 (empty) the open arena at 0, which collides
    // with A -> 30. C [1,1] sees only B [30,50): the gap [0,30) before it fits (C -> 0,
    // total 50); without the front gap only the tail 50 is offered (total 60).
    const std::vector<UsageRecord> recs{{0, 30, 0, 0}, {1, 20, 0, 1}, {2, 10, 1, 1}};
    CHECK(peer_heuristic(recs).offsets == Sizes{0, 30, 0});
    PeerHeuristicOptions no_front;
    no_front.front_gap = false;
    const OffsetAssignment p = peer_heuristic(recs, no_front);
    CHECK(p.offsets == Sizes{0, 30, 50});
    CHECK(p.total == 60);
    // The Python variant first rounds sizes up to 64: all three are 64 B, so the order is
    // by lifetime: B (two ops) -> 0, then A and C (one op each, A earlier) both meet only
    // B and take its tail 64. Total 128 = 64 + the aligned 64.
    const Plan py = make_plan("peer_heuristic_python", recs);
    CHECK(py.offsets.offsets == Sizes{64, 0, 64});
    CHECK(py.total == 128);
}

TEST_CASE("planners: peer_heuristic randomised improvement is seeded and never worse") {
    const std::vector<UsageRecord> recs = branching();
    PeerHeuristicOptions o;
    o.iterations = 50;
    o.seed = 7;
    const OffsetAssignment x = peer_heuristic(recs, o), y = peer_heuristic(recs, o);
    CHECK(x.offsets == y.offsets);
    CHECK(x.total <= peer_heuristic(recs).total);
    CHECK(x.total == 130);
}

TEST_CASE("planners: best_offsets reaches the bound on the hand sets") {
    BestOffsetsStats stats;
    OffsetAssignment c = best_offsets(chain(), {}, &stats);
    CHECK(c.total == 96);
    CHECK(stats.rounds_run == 0);  // greedy's start is already at the bound
    CHECK(best_offsets(branching()).total == 130);
    // A set where greedy offsets is above the bound: r0 4 B [0,0], r1 2 B [0,1],
    // r2 4 B [0,4], r3 3 B [1,4], r4 4 B [3,4]. Live bytes: 10, 9, 7, 11, 11 -> bound 11.
    // Greedy by size (r0, r2, r4, r3, r1): r0 -> 0, r2 meets r0 -> 4, r4 fits the gap
    // [0,4) below r2 (r0 is gone by op 3) -> 0, r3 meets r2 and r4 -> 8, r1 meets r0,
    // r2, r3 -> 11: total 13.
    const std::vector<UsageRecord> tight{{0, 4, 0, 0}, {1, 2, 0, 1}, {2, 4, 0, 4}, {3, 3, 1, 4}, {4, 4, 3, 4}};
    CHECK(live_bytes_peak(tight) == 11);
    const OffsetAssignment g = greedy_by_size_offsets(tight);
    CHECK(g.offsets == Sizes{0, 11, 4, 8, 0});
    CHECK(g.total == 13);
    BestOffsetsStats tight_stats;
    const OffsetAssignment b = best_offsets(tight, {}, &tight_stats);
    // best_offsets' size x lifetime ordering: r2 (20), r3 (12), r4 (8), r0 (4, larger
    // first), r1 (4). r2 -> 0, r3 -> 4, r4 -> 7, r0 (meets only r2) -> 4, r1 (meets r2,
    // r3, r0) -> 8: total 11, the bound, so no local search round is needed.
    CHECK(tight_stats.start == "area/gap");
    CHECK(tight_stats.rounds_run == 0);
    CHECK(b.offsets == Sizes{4, 8, 0, 4, 7});
    CHECK(b.total == 11);
    CHECK_NOTHROW(check_offsets(tight, b));
}

TEST_CASE("planners: dispatcher names and kinds and unknown strategies") {
    CHECK(strategy_names() == std::vector<std::string>{"naive", "equality", "greedy_in_order", "greedy_by_breadth",
                                                       "greedy_by_size", "greedy_best", "mincostflow", "mincostflow_fast", "mxnet",
                                                       "greedy_by_size_offsets", "peer_heuristic", "peer_heuristic_python",
                                                       "best_offsets"});
    CHECK(strategy_info("mxnet").kind == PlanKind::Objects);
    CHECK(strategy_info("peer_heuristic").kind == PlanKind::Offsets);
    CHECK_THROWS_WITH(strategy_info("greedy"), Catch::Contains("unknown planner strategy 'greedy'"));
    const Plan p = make_plan("greedy_by_size", branching());
    CHECK(p.total == 130);
    CHECK(p.offsets.offsets == Sizes{0, 40, 110, 80, 0, 40});  // objects 40, 40, 30, 20 end to end
}

TEST_CASE("planners: planner allocator peak is the plan total and overlaps are caught") {
    // a (100 B) read by op 1 which makes b (50 B), released after op 1; b read by op 2.
    const Workload w = test::WorkloadBuilder()
                           .op(1.0, 100, {}, {})
                           .op(1.0, 50, {0}, {0})
                           .op(1.0, 100, {1}, {1})
                           .build(2);
    // Records: t0 100 [0,1], t1 50 [1,2], t2 100 [2,2] (never released: lives to the end).
    // greedy_by_size objects: t0 and t2 (100, position 0) ... t2 shares t0's object.
    auto alloc = make_planner_allocator("greedy_by_size");
    alloc->prepare(w);
    CHECK(alloc->peak_bytes() == 150);
    alloc->allocate(0, 100);
    alloc->allocate(1, 50);
    // t2 is planned into t0's bytes: allocating it while t0 is alive is an overlap.
    CHECK_THROWS_WITH(alloc->allocate(2, 100), Catch::Contains("tensor 2") && Catch::Contains("tensor 0"));
    alloc->release(0);
    CHECK_NOTHROW(alloc->allocate(2, 100));
    CHECK_THROWS_WITH(alloc->allocate(7, 1), Catch::Contains("not in the plan"));
    CHECK_THROWS_WITH(alloc->release(0), Catch::Contains("freed but not allocated"));
    CHECK(alloc->footprint_bytes() == 150);
    CHECK(alloc->name() == "planner:greedy_by_size");
    CHECK_THROWS_AS(make_planner_allocator("nope"), std::invalid_argument);
}

// ---- memsim plan (the command line) ----

namespace {

std::string write_records(const std::string& name, const std::string& text) {
    const std::filesystem::path file = test::fresh_dir("plan_" + name) / "records.json";
    std::ofstream(file) << text;
    return file.string();
}

const char* kThreeRecords =
    R"({"records": [{"size": 16, "first": 0, "last": 1}, {"size": 8, "first": 1, "last": 2},)"
    R"( {"size": 16, "first": 2, "last": 3}]})";

}  // namespace

TEST_CASE("plan command: records to objects and to offsets") {
    const std::string file = write_records("ok", kThreeRecords);
    // r0 16 [0,1], r1 8 [1,2], r2 16 [2,3]: r2 can reuse r0's object (r0 ends at 1).
    test::Outcome o = test::run_memsim("plan --records " + file + " --strategy greedy_by_size");
    CHECK(o.code == 0);
    CHECK(o.out == "{\"strategy\":\"greedy_by_size\",\"object_ids\":[0,1,0],\"object_sizes\":[16,8],\"total\":24}\n");
    // Offsets aligned to 64: r0 and r2 at 0 (by size first), r1 meets r0 -> 64; total 72.
    o = test::run_memsim("plan --records " + file + " --strategy greedy_by_size --offsets --align 64");
    CHECK(o.code == 0);
    CHECK(o.out == "{\"strategy\":\"greedy_by_size\",\"offsets\":[0,64,0],\"total\":72}\n");
    // An object strategy with --offsets: its objects end to end (naive: 0, 16, 24).
    o = test::run_memsim("plan --records " + file + " --strategy naive --offsets");
    CHECK(o.out == "{\"strategy\":\"naive\",\"offsets\":[0,16,24],\"total\":40}\n");
    // An offset strategy prints offsets without --offsets.
    o = test::run_memsim("plan --records " + file + " --strategy peer_heuristic");
    CHECK(o.out == "{\"strategy\":\"peer_heuristic\",\"offsets\":[0,16,0],\"total\":24}\n");
}

TEST_CASE("plan command: bad records name the file and the field and the value") {
    struct Case {
        std::string text, message;
    };
    const std::vector<Case> cases{
        {R"({"records": [{"size": -5, "first": 0, "last": 1}]})", "records[0].size: -5 is negative"},
        {R"({"records": [{"size": 5, "first": 3, "last": 1}]})", "records[0]: first 3 is after last 1"},
        {R"({"records": [{"size": 5, "first": 0}]})", "records[0].last: missing"},
        {R"({"records": [{"size": "big", "first": 0, "last": 0}]})", "records[0].size: \"big\" is not a non-negative integer"},
        {R"({"records": [)", "not valid JSON"},
        {R"({"recs": []})", "expected {\"records\""},
    };
    for (std::size_t k = 0; k < cases.size(); ++k) {
        const std::string file = write_records("bad" + std::to_string(k), cases[k].text);
        const test::Outcome o = test::run_memsim("plan --records " + file + " --strategy naive");
        INFO(cases[k].text);
        CHECK(o.code == 1);
        CHECK(o.out.empty());
        CHECK_THAT(o.err, Catch::Contains(file) && Catch::Contains(cases[k].message));
    }
    const test::Outcome missing = test::run_memsim("plan --records /nonexistent/r.json --strategy naive");
    CHECK(missing.code == 1);
    CHECK_THAT(missing.err, Catch::Contains("/nonexistent/r.json: cannot open"));
    const std::string file = write_records("unknown", kThreeRecords);
    const test::Outcome unknown = test::run_memsim("plan --records " + file + " --strategy greedy");
    CHECK(unknown.code == 1);
    CHECK_THAT(unknown.err, Catch::Contains("unknown planner strategy 'greedy'") && Catch::Contains("mincostflow"));
    const test::Outcome none = test::run_memsim("plan --records " + file);
    CHECK(none.code == 1);
    CHECK_THAT(none.err, Catch::Contains("--strategy S is required"));
}

TEST_CASE("plan command: the table on the example MLP") {
    const test::Outcome o = test::run_memsim("plan examples/mlp --batch 4 --strategy greedy_by_size,best_offsets --json");
    REQUIRE(o.code == 0);
    const auto j = nlohmann::json::parse(o.out);
    CHECK(j.at("live_bytes_peak") == 7993384);
    REQUIRE(j.at("strategies").size() == 2);
    CHECK(j.at("strategies")[0].at("strategy") == "greedy_by_size");
    CHECK(j.at("strategies")[0].at("total_bytes") == 8077648);
    CHECK(j.at("strategies")[1].at("total_bytes") == 7993384);  // best_offsets reaches the bound
    CHECK(j.at("strategies")[1].at("ratio_to_bound") == 1.0);
    const test::Outcome table = test::run_memsim("plan examples/mlp --batch 4");
    CHECK(table.code == 0);
    CHECK_THAT(table.out, Catch::Contains("strategy") && Catch::Contains("mincostflow") && Catch::Contains("/pool"));
    const test::Outcome no_batch = test::run_memsim("plan examples/mlp");
    CHECK(no_batch.code == 1);
    CHECK_THAT(no_batch.err, Catch::Contains("--batch B is required"));
}
