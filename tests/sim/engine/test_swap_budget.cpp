// Budget-driven swap selection (policy.swap.select: budget) on traces worked out on paper.
// Disk: 100 B/ms both ways; allocator os (footprint = live bytes).
#include <catch2/catch.hpp>

#include "sim/scenario/scenario.h"
#include "sim/app/run/simulation.h"
#include "golden_support.h"
#include "test_support.h"

using namespace memsim;

namespace {

RunResult run_budget(const Workload& w, const std::string& budget) {
    const Scenario s = parse_scenario("workload: {synthetic: mlp}\n"
                                      "platform: {disk: {bandwidth: 100000B/s}, memory: {budget: " + budget + "}}\n"
                                      "policy: {allocator: os, swap: {mode: async, select: budget, prefetch: eager}}\n",
                                      "test");
    return simulate(w, s);
}

}  // namespace

TEST_CASE("budget selection: the largest size x idle-time feature map goes out, just enough to fit") {
    // Forward: op0 t0, op1 t1, op2 t2 (1000 B each, 5 ms). Backward: op3 reads t2, op4 reads t1,
    // op5 reads t0 (outputs 10 B each). Live during ops: 1000, 2000, 3000, 3010, 2020, 1030.
    // Budget 2100: op3 is over. Feature maps absent over op3: t0 (ops 1-4, idle 20 ms, score
    // 20000) and t1 (ops 2-3, 10 ms, 10000); t0 is taken, op3 falls to 2010: done.
    // Run: op0 0-5, write t0 5-15. op1 5-10 (2000). op2 needs room: waits for the write,
    // t0 freed at 15, op2 15-20. op3 20-25 (the read of t0 does not fit yet: 2000 + 1000).
    // op4 at 25: read fits (1010 + 1000), 25-35; op4 25-30. op5 waits until 35, runs 35-40.
    const Workload w = test::WorkloadBuilder()
                           .op(5, 1000, {}, {})
                           .op(5, 1000, {}, {})
                           .op(5, 1000, {}, {})
                           .op(5, 10, {2}, {2})
                           .op(5, 10, {1}, {1})
                           .op(5, 10, {0}, {0, 3, 4})
                           .build(3);
    const RunResult r = run_budget(w, "2100B");
    test::check_golden_run("timelines/swap_budget/idle_time_choice", r);
    CHECK(r.summary.status == "ok");
    CHECK(r.summary.swap_selected_tensors == 1);
    CHECK(r.summary.bytes_written == 1000);
    CHECK(r.summary.bytes_read == 1000);
    CHECK(r.summary.evictions == 0);
    CHECK(r.summary.time_ms == Approx(40.0).epsilon(1e-12));
    CHECK(r.summary.stall_ms == Approx(10.0).epsilon(1e-12));
    CHECK(r.summary.live_peak_bytes == 2020);
    CHECK(r.summary.peak_bytes <= 2100);
}

TEST_CASE("budget selection: what no feature-map window covers is swapped out on demand") {
    // Forward: op0 t0 (1000 B, 1 ms). Backward: op1 makes t1, op2 reads t0 and makes t2, op3
    // reads t1 (1000 B outputs, 10 B for op3, 1 ms each). Live during ops: 1000, 2000, 3000,
    // 2010; budget 2500. The only feature-map window (t0, absent over op1) does not cover op2,
    // so the static selection takes nothing.
    // Run: op2 at 2 needs 1000 B: t0 is locked, t1 is evicted to disk (write 2-12, stall 10),
    // op2 12-13 frees t0; op3 reads t1 back 13-23 (stall 10) and runs 23-24.
    const Workload w = test::WorkloadBuilder()
                           .op(1, 1000, {}, {})
                           .op(1, 1000, {}, {})
                           .op(1, 1000, {0}, {0})
                           .op(1, 10, {1}, {1, 2})
                           .build(1);
    const RunResult r = run_budget(w, "2500B");
    test::check_golden_run("timelines/swap_budget/on_demand", r);
    CHECK(r.summary.status == "ok");
    CHECK(r.summary.swap_selected_tensors == 0);
    CHECK(r.summary.evictions == 1);
    CHECK(r.summary.evictions_to_disk == 1);  // t1, written and read back: not a drop
    CHECK(r.summary.drops == 0);
    CHECK(r.summary.bytes_written == 1000);
    CHECK(r.summary.bytes_read == 1000);
    CHECK(r.summary.time_ms == Approx(24.0).epsilon(1e-12));
    CHECK(r.summary.stall_ms == Approx(20.0).epsilon(1e-12));
    CHECK(r.summary.live_peak_bytes == 2010);
}

TEST_CASE("budget selection: a budget below what the running op locks is an error naming the op") {
    // op2 needs t0 (locked) and its own 1000 B output: 2000 B can never fit in 1500.
    const Workload w = test::WorkloadBuilder()
                           .op(1, 1000, {}, {})
                           .op(1, 1000, {}, {})
                           .op(1, 1000, {0}, {0})
                           .op(1, 10, {1}, {1, 2})
                           .build(2);
    CHECK_THROWS_WITH(run_budget(w, "1500B"), Catch::Contains("platform.memory.budget: the budget 1.46 KiB (1500 B) is below "
                                                               "the working set of operator 2 'op2': 1.95 KiB (2000 B)"));
    CHECK_NOTHROW(run_budget(w, "2000B"));
}

TEST_CASE("fixed_buffer: evicts to disk what has no further forward use, reads it back on demand") {
    // Forward: op0 t0, op1 t1 (reads t0), op2 t2 (reads t1): 1000 B, 1 ms each. Backward:
    // op3 reads t2 and t0 (10 B out, frees t2); op4 reads t1 and t0 (10 B out, frees the rest).
    // Buffer 2500 B. op2 at 2: t0 + t1 + t2 = 3000 does not fit; t1 is locked, t0 goes to
    // disk (write 2-12), op2 12-13. op3 at 13 reads t0: t2 + t0 = 2000 + t1 does not fit; t1
    // (no forward use left) goes (write 13-23), read t0 23-33, op3 33-34. op4 at 34 reads t1
    // (34-44) and runs 44-45. Stalls: 10 + 10 + 10 + 10.
    const Workload w = test::WorkloadBuilder()
                           .op(1, 1000, {}, {})
                           .op(1, 1000, {0}, {})
                           .op(1, 1000, {1}, {})
                           .op(1, 10, {2, 0}, {2})
                           .op(1, 10, {1, 0}, {0, 1, 3})
                           .build(3);
    const Scenario s = parse_scenario("workload: {synthetic: mlp}\n"
                                      "platform: {disk: {bandwidth: 100000B/s}, memory: {budget: 2500B}}\n"
                                      "policy: {allocator: os, swap: {mode: async, select: fixed_buffer}}\n",
                                      "test");
    const RunResult r = simulate(w, s);
    test::check_golden_run("timelines/swap_budget/fixed_buffer", r);
    CHECK(r.summary.status == "ok");
    CHECK(r.summary.evictions == 2);
    CHECK(r.summary.evictions_to_disk == 2);  // t0 and t1
    CHECK(r.summary.drops == 0);
    CHECK(r.summary.bytes_written == 2000);
    CHECK(r.summary.bytes_read == 2000);
    CHECK(r.summary.time_ms == Approx(45.0).epsilon(1e-12));
    CHECK(r.summary.stall_ms == Approx(40.0).epsilon(1e-12));
    CHECK(r.summary.live_peak_bytes == 2020);
    CHECK(r.summary.peak_bytes <= 2500);
}
