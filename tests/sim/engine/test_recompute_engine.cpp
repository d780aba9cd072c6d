// Budgeted recomputation through the SimGrid engine (simulated semantics, os allocator):
// small graphs whose eviction choice and recomputation count are worked out by hand for
// every heuristic; a recomputation whose input was itself evicted; out of memory and
// thrash; hybrid swap-or-drop; properties.
#include <catch2/catch.hpp>

#include <pthread.h>
#include <sched.h>

#include <fmt/format.h>

#include "models/workload/synthetic.h"
#include "sim/scenario/scenario.h"
#include "sim/app/run/simulation.h"
#include "golden_support.h"
#include "recompute_workloads.h"
#include "test_support.h"

using namespace memsim;

namespace {

RunResult run_recompute(const Workload& w, std::uint64_t budget, const std::string& policy_extra,
                        const std::string& platform_extra = "") {
    const std::string yaml = fmt::format(
        "workload: {{synthetic: uniform_linear, n: 2}}\nplatform: {{memory: {{budget: {}B}}{}}}\n"
        "policy: {{allocator: os, {}}}\n",
        budget, platform_extra, policy_extra);
    return simulate(w, parse_scenario(yaml, "test"));
}

RunResult run_heuristic(const Workload& w, std::uint64_t budget, const std::string& heuristic, const std::string& more = "") {
    return run_recompute(w, budget, fmt::format("recompute: {{heuristic: {}{}}}", heuristic, more));
}

// Four resident tensors, each read once more later, then one allocation that needs one
// eviction. Op i produces tensor i.
//   op0 x0  1 B cost 1    t 0-1      last access 1
//   op1 x1  6 B cost 8    t 1-9      last access 9
//   op2 x2  3 B cost 0.5  t 9-9.5    last access 9.5
//   op3 x3  4 B cost 0.6  t 9.5-10.1 last access 10.1
//   op4 filler 1 B (freed at once), cost 2: 14 + 1 = 15 fits the budget of 15
//   op5 2 B at t = 12.1: 14 + 2 > 15 -> evict exactly one (any one is enough)
//   op6..op9 read x0..x3 (1 ms each, 1-byte outputs freed at once): the victim is
//   recomputed once, and it fits again (14 - v + v + 1 = 15).
// Staleness at 12.1: x0 11.1, x1 3.1, x2 2.6, x3 2.0. Scores (lowest goes):
//   lru   last access             -> x0 (1)
//   size  1/bytes                 -> x1 (1/6)
//   dtr = dtr_eq = dtr_local (no evicted neighbours): cost/(bytes x staleness)
//         x0 0.0901, x1 0.430, x2 0.0641, x3 0.075 -> x2
//   msps  cost/bytes: 1, 1.333, 0.1667, 0.15 -> x3
//   megengine (a=c=d=1, b^0, os: no free neighbours) (cost+1e-3)/(bytes (stale+1e-3))
//         0.0902, 0.430, 0.0642, 0.0751 -> x2; with d=0: (cost+1e-3)/bytes -> x3;
//         with a=0: 1/(bytes x stale): 0.090, 0.0538, 0.128, 0.125 -> x1
// The victim shows in recompute_ms (its producer's cost) and the time = 17.1 + that.
using test::four_candidates;  // recompute_workloads.h

}  // namespace

TEST_CASE("recompute engine: each heuristic evicts the tensor worked out by hand") {
    const Workload w = four_candidates();
    REQUIRE(w.compute_ms() == Approx(17.1));
    const std::pair<const char*, double> expected[] = {
        {"lru", 1.0},  {"size", 8.0}, {"dtr", 0.5},       {"dtr_eq", 0.5},
        {"dtr_local", 0.5}, {"msps", 0.6}, {"megengine", 0.5},
    };
    for (const auto& [heuristic, victim_cost] : expected) {
        INFO(heuristic);
        const RunResult r = run_heuristic(w, 15, heuristic);
        test::check_golden_run(std::string("timelines/recompute_engine/four_candidates_") + heuristic, r);
        CHECK(r.summary.status == "ok");
        CHECK(r.summary.evictions == 1);
        CHECK(r.summary.recomputed_ops == 1);
        CHECK(r.summary.recompute_ms == Approx(victim_cost));
        CHECK(r.summary.time_ms == Approx(17.1 + victim_cost));
        CHECK(r.summary.peak_bytes == 15);
    }
}

TEST_CASE("recompute engine: megengine's exponents change the choice as the formula says") {
    const Workload w = four_candidates();
    CHECK(run_heuristic(w, 15, "megengine", ", d: 0").summary.recompute_ms == Approx(0.6));  // x3
    CHECK(run_heuristic(w, 15, "megengine", ", a: 0").summary.recompute_ms == Approx(8.0));  // x1
}

TEST_CASE("recompute engine: random is seeded and reproducible") {
    // The candidates at op5 are x0..x3 in insertion order; the victim is the first
    // splitmix64 draw mod 4 (see the heuristic's unit test): seed 0 -> 3 (x3, 0.6 ms),
    // seed 1 -> 1 (x1, 8 ms), seed 2 -> 2 (x2, 0.5 ms). A heuristic that ignored its seed
    // would pick one tensor for all three.
    const Workload w = four_candidates();
    const std::pair<int, double> expected[] = {{0, 0.6}, {1, 8.0}, {2, 0.5}};
    for (const auto& [seed, victim_cost] : expected) {
        INFO("seed " << seed);
        const RunResult a = run_heuristic(w, 15, "random", fmt::format(", seed: {}", seed));
        const RunResult b = run_heuristic(w, 15, "random", fmt::format(", seed: {}", seed));
        CHECK(a.summary.status == "ok");
        CHECK(a.summary.recomputed_ops == 1);
        CHECK(a.summary.recompute_ms == Approx(victim_cost));
        CHECK(b.summary.recompute_ms == a.summary.recompute_ms);
    }
}

namespace {

// A: () -> a, B: a -> b, C: b -> c, D: () -> d (5 B, freed at once), E: c -> e,
// G: a, b -> g; 1 byte otherwise, 1 ms each.
Workload recursion_graph() {
    return test::WorkloadBuilder()
        .op(1.0, 1, {}, {})
        .op(1.0, 1, {0}, {})
        .op(1.0, 1, {1}, {})
        .op(1.0, 5, {}, {3})
        .op(1.0, 1, {2}, {2, 4})
        .op(1.0, 1, {0, 1}, {0, 1, 5})
        .build(6);
}

}  // namespace

TEST_CASE("recompute engine: a recomputation whose input was itself evicted") {
    // Budget 6, size (1-byte candidates tie: the most recently evictable goes). After C:
    // a, b, c resident; C unlocked its output c, then its input b, so the order is a, c, b.
    // D needs 5: evict b (7 > 6), then c (6). D's output is freed at once: a alone.
    // E needs c: C needs b: B (a resident) runs, then C, then E. G finds a and b resident.
    const RunResult r = run_heuristic(recursion_graph(), 6, "size");
    test::check_golden_run("timelines/recompute_engine/recursion", r);
    CHECK(r.summary.status == "ok");
    CHECK(r.summary.evictions == 2);
    CHECK(r.summary.recomputed_ops == 2);
    CHECK(r.summary.recompute_ms == Approx(2.0));
    CHECK(r.summary.time_ms == Approx(8.0));
    CHECK(r.summary.peak_bytes == 6);
    // The recomputations are GPU activities on the recompute lane, B before C, both at t = 4.
    std::vector<std::string> recomputed;
    for (const auto& a : r.log.activities)
        if (a.lane == lane::kRecompute) recomputed.emplace_back(a.label);
    CHECK(recomputed == std::vector<std::string>{"op1", "op2"});
}

TEST_CASE("recompute engine: out of memory names the op, the bytes, the budget and what is held") {
    // B needs 1 byte while its input a (locked) fills the 1-byte budget. Op 3's 5-byte
    // output can never fit in 1 B: simulated semantics refuse the budget before the run,
    // naming op 3; dtr semantics keep the published runtime's answer, OOM at op 1.
    CHECK_THROWS_WITH(run_heuristic(recursion_graph(), 1, "dtr"),
                      Catch::Contains("test: platform.memory.budget: the budget 1 B (1 B) is below the working set of "
                                      "operator 3 'op3': 5 B (5 B)"));
    const RunResult r = run_recompute(recursion_graph(), 1, "recompute: {heuristic: dtr}, semantics: dtr");
    test::check_golden_run("timelines/recompute_engine/out_of_memory", r);
    CHECK(r.summary.status == "oom");
    CHECK(r.summary.message ==
          "out of memory at op 1 (op1): needs 1 B more, budget 1 B, footprint 1 B, non-evictable resident 1 B; "
          "largest: 0 1 B (locked)");
    CHECK(r.summary.recomputed_ops == 0);
}

TEST_CASE("recompute engine: the thrash limit stops the run at the first recomputation beyond it") {
    // As in the recursion case: B (1 ms) then C (2 ms in all) against 0.2 x 6 ms = 1.2 ms.
    const RunResult r = run_heuristic(recursion_graph(), 6, "size", ", max_overhead: 0.2");
    test::check_golden_run("timelines/recompute_engine/thrash", r);
    CHECK(r.summary.status == "thrash");
    CHECK(r.summary.message == "recomputation time 2.000 ms exceeded 0.2 x the compute time 6.000 ms at op 4");
    CHECK(r.summary.recomputed_ops == 2);
    // Within the limit it runs to the end.
    CHECK(run_heuristic(recursion_graph(), 6, "size", ", max_overhead: 0.5").summary.status == "ok");
}

TEST_CASE("recompute engine: hybrid swaps or drops per tensor from the disk and the recompute cost") {
    // lru evicts x0 (1 byte, producer 1 ms). Swapping costs write + read = 2 bytes / rate.
    const Workload w = four_candidates();
    const std::string policy = "hybrid: true, swap: {mode: async}, recompute: {heuristic: lru}";
    // 1000 B/s: 2 ms > 1 ms -> dropped and recomputed.
    const RunResult slow = run_recompute(w, 15, policy, ", disk: {bandwidth: 1000B/s}");
    test::check_golden_run("timelines/recompute_engine/hybrid_drop", slow);
    CHECK(slow.summary.status == "ok");
    CHECK(slow.summary.recomputed_ops == 1);
    CHECK(slow.summary.bytes_written == 0);
    CHECK(slow.summary.details.at("hybrid_dropped") == 1);
    // 10 kB/s: the disk hides x1 (6 B: written 9.0-9.6 after op1, read back 13.1-13.7
    // for op7 at 14.1), and that planned swap alone meets the budget (docs/swap.md, "Hybrid"):
    // no eviction at all, the compute time. (Without the plan the eviction of x0 was
    // swapped: 0.2 ms < 1 ms, 17.3 ms.)
    const RunResult fast = run_recompute(w, 15, policy, ", disk: {bandwidth: 10000B/s}");
    test::check_golden_run("timelines/recompute_engine/hybrid_swap", fast);
    CHECK(fast.summary.status == "ok");
    CHECK(fast.summary.recomputed_ops == 0);
    CHECK(fast.summary.evictions == 0);
    CHECK(fast.summary.swap_selected_tensors == 1);
    CHECK(fast.summary.bytes_written == 6);
    CHECK(fast.summary.bytes_read == 6);
    CHECK(fast.summary.details.at("hybrid_swapped") == 0);
    CHECK(fast.summary.time_ms == Approx(17.1));
}

TEST_CASE("recompute engine: a budget at or above the no-swap peak recomputes nothing, for every heuristic") {
    const Workload w = four_candidates();  // no-swap peak 16
    for (const char* h : {"dtr", "dtr_eq", "dtr_local", "msps", "lru", "size", "random", "megengine"})
        for (std::uint64_t budget : {16u, 17u, 100u}) {
            INFO(h << " budget " << budget);
            const RunResult r = run_heuristic(w, budget, h);
            CHECK(r.summary.status == "ok");
            CHECK(r.summary.recomputed_ops == 0);
            CHECK(r.summary.evictions == 0);
        }
}

TEST_CASE("recompute engine: budget_ratio is a fraction of the no-swap peak") {
    const Workload w = four_candidates();
    const Scenario s = parse_scenario("workload: {synthetic: uniform_linear, n: 2}\nplatform: {memory: {budget_ratio: 0.95}}\n"
                                      "policy: {allocator: os, recompute: {heuristic: dtr}}\n",
                                      "test");
    const RunResult r = simulate(w, s);
    CHECK(r.summary.budget_bytes == 15u);  // floor(0.95 x 16)
    CHECK(r.summary.recomputed_ops == 1);
    CHECK_THROWS_WITH(parse_scenario("workload: {synthetic: uniform_linear, n: 2}\nplatform: {memory: {budget: 1MB, budget_ratio: 0.5}}\n", "t.yaml"),
                      Catch::Contains("either platform.memory.budget or platform.memory.budget_ratio"));
}

TEST_CASE("recompute engine: a smaller budget never lowers dtr's recomputation count on uniform linear") {
    // Simulated semantics (the clock is SimGrid time; released tensors are freed for good).
    const Workload w = make_uniform_linear(32);
    std::uint64_t previous = 0;
    for (int budget = 64; budget >= 4; --budget) {
        INFO("budget " << budget);
        const RunResult r = run_heuristic(w, static_cast<std::uint64_t>(budget), "dtr");
        if (r.summary.status != "ok") break;
        CHECK(r.summary.recomputed_ops >= previous);
        previous = r.summary.recomputed_ops;
    }
    CHECK(previous > 0);
}

TEST_CASE("recompute engine: a dead ancestor regenerated for one branch serves the other") {
    // P: () -> p; Q: p -> q; R: p -> r; S: q, r -> s; D: 4 B freed at once; U: s -> u.
    // 1 byte and 1 ms each otherwise; budget 4. p, q, r are dead after S; D evicts s (the
    // only candidate). U needs s: S needs q (Q needs p: P runs, then Q) and r (R finds p
    // still resident), then S: 4 recomputations, not 5 (p used to be freed right after Q
    // and regenerated again for R: exponential in the number of branches on MobilenetV2).
    // U's output then fits by dropping p, the oldest regenerated dead tensor.
    const Workload w = test::WorkloadBuilder()
                           .op(1.0, 1, {}, {})
                           .op(1.0, 1, {0}, {})
                           .op(1.0, 1, {0}, {0})
                           .op(1.0, 1, {1, 2}, {1, 2})
                           .op(1.0, 4, {}, {4})
                           .op(1.0, 1, {3}, {3, 5})
                           .build(6);
    const RunResult r = run_heuristic(w, 4, "dtr");
    test::check_golden_run("timelines/recompute_engine/dead_ancestor", r);
    CHECK(r.summary.status == "ok");
    CHECK(r.summary.evictions == 1);
    CHECK(r.summary.recomputed_ops == 4);
    CHECK(r.summary.time_ms == Approx(10.0));
    CHECK(r.summary.peak_bytes == 4);
    std::vector<std::string> recomputed;
    for (const auto& a : r.log.activities)
        if (a.lane == lane::kRecompute) recomputed.emplace_back(a.label);
    CHECK(recomputed == std::vector<std::string>{"op0", "op1", "op2", "op3"});
}

TEST_CASE("recompute engine: a released constant stays resident so what was computed from it can be recomputed") {
    // w: constant 5 B, read only by op0 and released after it. op0 w -> a (10 B),
    // op1 a -> b (10 B), op2 b -> c (10 B, releases b), op3 a, c -> d (1 B, releases a, c);
    // 1 ms each. Budget 34 B. w is kept (released, resident) under a recompute budget:
    // op1 holds w a b = 25; op2 needs c: 35 > 34, so a (the only evictable tensor: b is
    // locked, w a constant) is evicted -> 15 + c = 25; op3 needs a: op0 is replayed from
    // the kept w (25), then d (26). Freed at its release, w could not be brought back and
    // the run would stop with "needed but absent and has no producer".
    Workload w;
    w.name = "source";
    w.batch = 1;
    w.source = "test";
    auto tensor = [&](const std::string& name, std::uint64_t bytes, int producer, bool constant = false) {
        Tensor t;
        t.name = name;
        t.bytes = bytes;
        t.producer = producer;
        t.constant = constant;
        w.tensors.push_back(t);
        return static_cast<TensorId>(w.tensors.size() - 1);
    };
    const TensorId src = tensor("w", 5, kNoOp, true), a = tensor("a", 10, 0), b = tensor("b", 10, 1),
                   c = tensor("c", 10, 2), d = tensor("d", 1, 3);
    auto op = [&](const std::string& name, std::vector<TensorId> in, TensorId out, std::vector<TensorId> release) {
        Op o;
        o.name = name;
        o.cost_ms = 1.0;
        o.inputs = std::move(in);
        o.outputs = {out};
        o.release = std::move(release);
        w.ops.push_back(o);
    };
    op("op0", {src}, a, {src});
    op("op1", {a}, b, {});
    op("op2", {b}, c, {b});
    op("op3", {a, c}, d, {a, c});
    w.forward_end = 2;
    for (const std::string semantics : {"simulated", "dtr"}) {
        INFO(semantics);
        const RunResult r = run_recompute(w, 34, "semantics: " + semantics + ", recompute: {heuristic: lru}");
        test::check_golden_run("timelines/recompute_engine/released_constant_" + semantics, r);
        CHECK(r.summary.status == "ok");
        CHECK(r.summary.recomputed_ops == 1);
        CHECK(r.summary.evictions == 1);
        CHECK(r.summary.time_ms == Approx(5.0).epsilon(1e-12));
        CHECK(r.summary.live_peak_bytes == 26);
    }
}

// Sanitized builds keep SimGrid's actor threads on one CPU while a run lasts (platform.h,
// ActorThreadsOnOneCpu); the thread that ran it gets its CPUs back, so that what it starts
// later (a sweep's processes, the next run) is not confined to that CPU.
TEST_CASE("recompute engine: a run leaves the calling thread's CPU affinity as it found it") {
    cpu_set_t before;
    REQUIRE(pthread_getaffinity_np(pthread_self(), sizeof before, &before) == 0);
    const RunResult r = run_heuristic(four_candidates(), 15, "dtr");
    REQUIRE(r.summary.status == "ok");
    cpu_set_t after;
    REQUIRE(pthread_getaffinity_np(pthread_self(), sizeof after, &after) == 0);
    CHECK(CPU_EQUAL(&before, &after));
    CHECK(CPU_COUNT(&after) == CPU_COUNT(&before));
}
