// Each eviction heuristic on a hand-made state (a fake EvictionView), with the choice
// worked out by hand in the comments.
#include <catch2/catch.hpp>

#include <limits>
#include <stdexcept>

#include "models/recompute/dtr_eq_heuristic.h"
#include "models/recompute/eviction_heuristic.h"
#include "models/recompute/scored_heuristic.h"

using namespace memsim;

namespace {

// A chain t0 -> t1 -> t2 -> t3 -> t4; op i produces t_i with cost i+1 ms.
Workload chain(std::vector<std::uint64_t> sizes) {
    Workload w;
    w.name = "chain";
    for (int i = 0; i < static_cast<int>(sizes.size()); ++i) {
        w.tensors.push_back(Tensor{"t" + std::to_string(i), sizes[i], i, false, false, -1});
        Op op;
        op.name = "op" + std::to_string(i);
        op.cost_ms = i + 1.0;
        if (i > 0) op.inputs.push_back(i - 1);
        op.outputs.push_back(i);
        w.ops.push_back(op);
    }
    w.forward_end = static_cast<int>(w.ops.size());
    return w;
}

class FakeView final : public EvictionView {
public:
    explicit FakeView(Workload w)
        : w_(std::move(w)), evicted_(w_.tensors.size(), false), last_(w_.tensors.size(), 0.0),
          recomputes_(w_.tensors.size(), 0), free_(w_.tensors.size(), 0) {}
    const Workload& workload() const override { return w_; }
    double now_ms() const override { return now; }
    bool resident(TensorId t) const override { return !evicted_[t]; }
    bool evicted(TensorId t) const override { return evicted_[t]; }
    double last_access_ms(TensorId t) const override { return last_[t]; }
    int recompute_count(TensorId t) const override { return recomputes_[t]; }
    double compute_cost_ms(TensorId t) const override { return w_.ops[w_.tensors[t].producer].cost_ms; }
    std::uint64_t free_neighbour_bytes(TensorId t) const override { return free_[t]; }

    double now = 0.0;
    Workload w_;
    std::vector<bool> evicted_;
    std::vector<double> last_;
    std::vector<int> recomputes_;
    std::vector<std::uint64_t> free_;
};

// Sizes 10, 20, 10, 40, 10; now 10; last access 7, 4, 6, 8, 9; t2 evicted.
// Candidates t0, t1, t3, t4 (indices 0..3). Staleness 3, 6, -, 2, 1.
FakeView standard_state() {
    FakeView v(chain({10, 20, 10, 40, 10}));
    v.now = 10;
    v.last_ = {7, 4, 6, 8, 9};
    v.evicted_[2] = true;
    return v;
}

const std::vector<TensorId> kCandidates{0, 1, 3, 4};

std::size_t choose(const std::string& name, const FakeView& view, const ParamValues& params = {}) {
    auto h = make_eviction_heuristic(name, params);
    return h->choose(view, kCandidates);
}

}  // namespace

TEST_CASE("dtr: own cost plus the evicted neighbourhood in both directions") {
    // t0: 1/(10*3) = 0.0333; t1: (2 + t2's 3)/(20*6) = 0.0417; t3: (4 + 3)/(40*2) = 0.0875; t4: 5/10 = 0.5.
    CHECK(choose("dtr", standard_state()) == 0);
}

TEST_CASE("dtr_local: own cost only") {
    // t0: 1/30 = 0.0333; t1: 2/120 = 0.0167 (lowest: the evicted t2 does not count); t3: 0.05; t4: 0.5.
    CHECK(choose("dtr_local", standard_state()) == 1);
}

TEST_CASE("msps: cost of the evicted ancestors per byte and ties go to the most recently inserted") {
    // t0: 1/10 = 0.1; t1: 2/20 = 0.1 (tie, later wins); t3: (4 + 3)/40 = 0.175; t4: 5/10 = 0.5.
    CHECK(choose("msps", standard_state()) == 1);
}

TEST_CASE("lru: the oldest last access") {
    CHECK(choose("lru", standard_state()) == 1);  // 7, 4, 8, 9
}

TEST_CASE("size: the largest") {
    CHECK(choose("size", standard_state()) == 2);  // t3, 40 bytes
}

TEST_CASE("ties among equal scores choose the last candidate") {
    FakeView v(chain({1, 1, 1, 1, 1}));
    v.now = 10;
    v.last_ = {5, 5, 5, 5, 5};
    CHECK(choose("lru", v) == 3);
    CHECK(choose("size", v) == 3);
}

TEST_CASE("megengine: the SPEC formula with free neighbours and recompute counts") {
    FakeView v = standard_state();
    // Defaults a=1, b=1.0001, c=1, d=1, cost as dtr's: t0 1.001/(10*3.001) = 0.03336,
    // t1 5.001/(20*6.001) = 0.04167, t3 7.001/(40*2.001) = 0.0875, t4 5.001/(10*1.001) = 0.4996.
    CHECK(choose("megengine", v) == 0);
    const auto& megengine_row = *find_row(eviction_heuristic_table(), "megengine");
    ScoredHeuristic plain("megengine", megengine_score, PolicyParams(megengine_row.params, {}));
    CHECK(plain.score(v, 1) == Approx(5.001 / (20.0 * 6.001)).epsilon(1e-12));
    // 100 free bytes around t1: 5.001/(120*6.001) = 0.006945 -> t1.
    v.free_[1] = 100;
    CHECK(choose("megengine", v) == 1);
    // Recomputed 3 times with b = 2: x8 -> 0.05556 > t0's 0.03336.
    v.recomputes_[1] = 3;
    const ParamValues params{{"b", 2.0}};
    CHECK(choose("megengine", v, params) == 0);
    ScoredHeuristic penalised("megengine", megengine_score, PolicyParams(megengine_row.params, params));
    CHECK(penalised.score(v, 1) == Approx(8.0 * 5.001 / (120.0 * 6.001)).epsilon(1e-12));
}

TEST_CASE("dtr_eq: groups merge on eviction, subtract on recompute, never split") {
    FakeView v(chain({10, 10, 10, 10, 10}));
    DtrEqHeuristic eq;
    // Evict t1 (cost 2), t2 (3), t3 (4): one group of 9.
    for (TensorId t : {1, 2, 3}) {
        v.evicted_[t] = true;
        eq.on_evicted(v, t);
    }
    CHECK(eq.group_cost(1) == 9.0);
    CHECK(eq.group_cost(3) == 9.0);
    // Recompute t2: the group keeps t1 and t3 (no split) and is worth 9 - 3 = 6.
    v.evicted_[2] = false;
    eq.on_rematerialized(v, 2);
    CHECK(eq.group_cost(1) == 6.0);
    CHECK(eq.group_cost(2) == 0.0);
    // t0 vs t4, same size and staleness: dtr_eq sees t0 = 1 + 6 = 7 and t4 = 5 + 6 = 11,
    // exact dtr sees t0 = 1 + 2 = 3 and t4 = 5 + 4 = 9. Both pick t0; the scores differ.
    v.now = 10;
    v.last_ = {5, 0, 0, 0, 5};
    CHECK(eq.choose(v, {0, 4}) == 0);
    // Staleness 2 (t0) and 5 (t4), size 10: dtr t0 3/20 = 0.15 < t4 9/50 = 0.18 -> t0;
    // dtr_eq t0 7/20 = 0.35 > t4 11/50 = 0.22 -> t4: the stale group value changes the choice.
    v.last_ = {8, 0, 0, 0, 5};
    CHECK(eq.choose(v, {0, 4}) == 1);
    auto dtr = make_eviction_heuristic("dtr", {});
    CHECK(dtr->choose(v, {0, 4}) == 0);
}

TEST_CASE("random: seeded splitmix64, reproducible") {
    FakeView v = standard_state();
    auto a = make_eviction_heuristic("random", {{"seed", std::uint64_t{0}}});
    // splitmix64 from seed 0: 0xe220a8397b1dcdaf, 0x6e789e6aa1b965f4, 0x06c45d188009454f (mod 4: 3, 0, 3).
    CHECK(a->choose(v, kCandidates) == 3);
    CHECK(a->choose(v, kCandidates) == 0);
    CHECK(a->choose(v, kCandidates) == 3);
    // Another seed, another stream: from seed 1, 0x910a2dec89025cc1, 0xbeeb8da1658eec67,
    // 0xf893a2eefb32555e (mod 4: 1, 3, 2). A heuristic that ignored its seed fails here.
    auto b = make_eviction_heuristic("random", {{"seed", std::uint64_t{1}}});
    CHECK(b->choose(v, kCandidates) == 1);
    CHECK(b->choose(v, kCandidates) == 3);
    CHECK(b->choose(v, kCandidates) == 2);
}

TEST_CASE("heuristic factory: every name, and unknown names rejected") {
    for (const std::string& name : eviction_heuristic_names()) CHECK(make_eviction_heuristic(name, {})->name() == name);
    CHECK(eviction_heuristic_names().size() == 8);
    CHECK_THROWS_AS(make_eviction_heuristic("belady", {}), std::invalid_argument);
    CHECK_THROWS_WITH(make_eviction_heuristic("belady", {}), Catch::Contains("unknown recompute heuristic 'belady' (valid: dtr, dtr_eq,"));
    CHECK_THROWS_WITH(make_eviction_heuristic("dtr_lcoal", {}), Catch::Contains("did you mean 'dtr_local'?"));
    for (const EvictionHeuristicRow& row : eviction_heuristic_table()) CHECK(!row.summary.empty());
    // A parameter the row does not declare, or outside its range, is refused by name.
    CHECK_THROWS_WITH(make_eviction_heuristic("dtr", {{"seed", std::uint64_t{1}}}), Catch::Contains("'seed' is not a parameter"));
    CHECK_THROWS_WITH(make_eviction_heuristic("megengine", {{"a", std::numeric_limits<double>::infinity()}}),
                      Catch::Contains("parameter 'a': inf is not a number"));
}
