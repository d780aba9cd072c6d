// Tiny traces whose swap timings are worked out on paper. Disk: 100 B/ms both ways.
#include <catch2/catch.hpp>

#include "sim/scenario/scenario.h"
#include "sim/app/run/simulation.h"
#include "golden_support.h"
#include "test_support.h"

using namespace memsim;
using test::overlap_trace;

namespace {

RunResult run_traced(const Workload& w, const std::string& policy, const std::string& extra_platform = "") {
    const Scenario s = parse_scenario("workload: {synthetic: mlp}\nplatform: {disk: {bandwidth: 100000B/s}" + extra_platform +
                                          "}\npolicy: " + policy + "\n",
                                      "test");
    return simulate(w, s);
}

}  // namespace

TEST_CASE("async: the write of t0 overlaps op1 and op2 read queues behind the write of t1 and stalls it") {
    // op0 0-5; write t0 5-15 (during op1 5-25); write t1 25-25.1.
    // op2 at 25 reads t0: queued behind write t1, 25.1-35.1; then t1 (on disk at 25.1): 35.1-35.2.
    // op2 runs 35.2-40.2: stall 10.2 ms.
    const RunResult r = run_traced(overlap_trace(), "{swap: {mode: async}}");
    test::check_golden_run("timelines/swap_traces/async_overlap", r);
    CHECK(r.summary.time_ms == Approx(40.2).epsilon(1e-12));
    CHECK(r.summary.stall_ms == Approx(10.2).epsilon(1e-12));
    CHECK(r.summary.bytes_written == 1010);
    CHECK(r.summary.bytes_read == 1010);
    CHECK(r.summary.swap_selected_tensors == 2);
    // During op1: t0 (write in flight until 15) + t1 = 1010. During op2: t0 + t1 + t2 = 1020.
    CHECK(r.summary.live_peak_bytes == 1020);
    const auto& acts = r.log.activities;
    const auto write_t0 = std::find_if(acts.begin(), acts.end(), [](const Activity& a) { return a.lane == "disk_write" && a.label == "0"; });
    REQUIRE(write_t0 != acts.end());
    CHECK(write_t0->start_ms == Approx(5.0));
    CHECK(write_t0->end_ms == Approx(15.0));
}

TEST_CASE("sync: every swap is serialised with compute") {
    // op0 0-5, write t0 5-15, op1 15-35, write t1 35-35.1, read t0 35.1-45.1, read t1 45.1-45.2, op2 45.2-50.2.
    const RunResult r = run_traced(overlap_trace(), "{swap: {mode: sync}}");
    test::check_golden_run("timelines/swap_traces/sync", r);
    CHECK(r.summary.time_ms == Approx(50.2).epsilon(1e-12));
    CHECK(r.summary.stall_ms == Approx(20.2).epsilon(1e-12));
    // t0 is gone during op1: live there is t1 = 10; the peak is op0 + its write (1000),
    // then op2 with both read back and t2: 1020.
    CHECK(r.summary.live_peak_bytes == 1020);
}

TEST_CASE("semi_sync: the write of op0 runs alongside op1 and the backward read waits for the last write") {
    // op0 0-5; write t0 5-15 alongside op1 5-25 (done before op2: no wait); write t1 25-25.1;
    // backward start waits for it, reads t0 25.1-35.1 and t1 35.1-35.2; op2 35.2-40.2.
    const RunResult r = run_traced(overlap_trace(), "{swap: {mode: semi_sync}}");
    test::check_golden_run("timelines/swap_traces/semi_sync", r);
    CHECK(r.summary.time_ms == Approx(40.2).epsilon(1e-12));
    CHECK(r.summary.stall_ms == Approx(10.2).epsilon(1e-12));
}

namespace {

// Forward: op0 t0 = 1000 B 1 ms; op1 t1 = 1000 B 1 ms; op2 t2 = 10 B 30 ms. F = 3.
// Backward: op3 reads t2 (30 ms); op4 reads t1 (1 ms); op5 reads t3 (30 ms); op6 reads t0 (1 ms).
Workload prefetch_trace() {
    return test::WorkloadBuilder()
        .op(1, 1000, {}, {})
        .op(1, 1000, {}, {})
        .op(30, 10, {}, {})
        .op(30, 10, {2}, {2})
        .op(1, 10, {1}, {1})
        .op(30, 10, {3}, {3})
        .op(1, 10, {0}, {0, 4, 5})
        .build(3);
}

}  // namespace

TEST_CASE("async eager vs just_in_time: same time, JIT holds t0 back until it is needed") {
    // Writes: t0 1-11, t1 11-21, t2 32-32.1. op3 at 32 uses t2 in place (its write is still running).
    // eager at 32: reads t1 32.1-42.1 and t0 42.1-52.1; during op3 both are resident: 10+10+1000+1000.
    const RunResult eager = run_traced(prefetch_trace(), "{swap: {mode: async, prefetch: eager}}");
    test::check_golden_run("timelines/swap_traces/prefetch_eager", eager);
    CHECK(eager.summary.time_ms == Approx(94.0).epsilon(1e-12));
    CHECK(eager.summary.stall_ms == Approx(0.0).margin(1e-9));
    CHECK(eager.summary.live_peak_bytes == 2020);
    // just_in_time: t1 must go at 32 (issued at op4's start, 62, it would end at 72 > 62);
    // t0 waits until op5 starts (63): 63-73, before op6 needs it at 93. t1 is freed after op4.
    const RunResult jit = run_traced(prefetch_trace(), "{swap: {mode: async, prefetch: just_in_time}}");
    test::check_golden_run("timelines/swap_traces/prefetch_just_in_time", jit);
    CHECK(jit.summary.time_ms == Approx(94.0).epsilon(1e-12));
    CHECK(jit.summary.stall_ms == Approx(0.0).margin(1e-9));
    CHECK(jit.summary.live_peak_bytes == 2010);  // op0/op1 in forward: t0 + t1 + write in flight, then 1030 in backward
    const auto read_t0 = std::find_if(jit.log.activities.begin(), jit.log.activities.end(),
                                      [](const Activity& a) { return a.lane == "disk_read" && a.label == "0"; });
    REQUIRE(read_t0 != jit.log.activities.end());
    CHECK(read_t0->start_ms == Approx(63.0));
    CHECK(read_t0->end_ms == Approx(73.0));
}

TEST_CASE("async lead_ops: a read issued one op ahead stalls when the disk is slower than compute") {
    // lead_ops 1: t1 is read at op3's start (op4 - 1), 32.1-42.1; t0 at op5's start (63), 63-73.
    const RunResult r = run_traced(prefetch_trace(), "{swap: {mode: async, prefetch: {lead_ops: 1}}}");
    test::check_golden_run("timelines/swap_traces/prefetch_lead_ops_1", r);
    CHECK(r.summary.time_ms == Approx(94.0).epsilon(1e-12));
}

// lead_ops 0: t1 is read when op4 needs it (62-72): 10 ms stall; t0 at op6 (83-93): 10 ms more.
TEST_CASE("async lead_ops 0: each read is issued when its consumer starts") {
    const RunResult late = run_traced(prefetch_trace(), "{swap: {mode: async, prefetch: {lead_ops: 0}}}");
    test::check_golden_run("timelines/swap_traces/prefetch_lead_ops_0", late);
    CHECK(late.summary.time_ms == Approx(114.0).epsilon(1e-12));
    CHECK(late.summary.stall_ms == Approx(20.0).epsilon(1e-12));
}

namespace {

// The no-prefetch peak is in the backward pass. Forward: op0 t0 = 1000 B 1 ms; op1 t1 =
// 10 B 20 ms. F = 2. Backward: op2 reads t1 (10 ms, t2 = 10 B); op3 reads t2 (10 ms, t3 =
// 10 B); op4 reads t0 and allocates t4 = 1500 B (1 ms).
Workload late_peak_trace() {
    return test::WorkloadBuilder()
        .op(1, 1000, {}, {})
        .op(20, 10, {}, {})
        .op(10, 10, {1}, {1})
        .op(10, 10, {2}, {2})
        .op(1, 1500, {0}, {0, 3, 4})
        .build(2);
}

}  // namespace

TEST_CASE("async budget prefetch without a budget: the cap is the run's peak with reads on demand, reached late") {
    // Writes: t0 1-11 (during op1 1-21: 1000 + 10 = 1010 in use); t1's, queued at 21, is
    // dropped when op2 uses t1 in place at 21. With reads on demand: op2 21-31 (t1 + t2 =
    // 20), op3 31-41 (t2 + t3 = 20), op4 reads t0 41-51 and runs 51-52: t3 + t0 + t4 = 2510,
    // the no-prefetch peak, after a 10 ms stall. The budget rule's cap is then 2510: at
    // op2's start t0's read fits (20 + 1000 in use during op2 and op3), is read 21-31, and
    // op4 starts at 41 without a stall; the peak stays 2510. Capped at the peak so far
    // (1010 when op2 starts, the rule before), the read waited for op4: 52 ms.
    // (The golden run first: a run after another in one process has its clock shifted.)
    const RunResult budget = run_traced(late_peak_trace(), "{swap: {mode: async, prefetch: budget}}");
    test::check_golden_run("timelines/swap_traces/prefetch_budget_late_peak", budget);
    CHECK(budget.summary.time_ms == Approx(42.0).epsilon(1e-12));
    CHECK(budget.summary.stall_ms == Approx(0.0).margin(1e-9));
    CHECK(budget.summary.live_peak_bytes == 2510);
    const auto read_t0 = std::find_if(budget.log.activities.begin(), budget.log.activities.end(),
                                      [](const Activity& a) { return a.lane == "disk_read" && a.label == "0"; });
    REQUIRE(read_t0 != budget.log.activities.end());
    CHECK(read_t0->start_ms == Approx(21.0));
    CHECK(read_t0->end_ms == Approx(31.0));
    const RunResult on_demand = run_traced(late_peak_trace(), "{swap: {mode: async, prefetch: {lead_ops: 0}}}");
    CHECK(on_demand.summary.time_ms == Approx(52.0).epsilon(1e-12));
    CHECK(on_demand.summary.stall_ms == Approx(10.0).epsilon(1e-12));
    CHECK(on_demand.summary.live_peak_bytes == 2510);
    CHECK(on_demand.summary.swap_writes_cancelled == 1);
    // A user cap of 1010 B (the forward peak) holds the read back to op4, as on demand.
    const RunResult capped = run_traced(late_peak_trace(), "{swap: {mode: async, prefetch: {budget: {cap: 1010B}}}}");
    CHECK(capped.summary.time_ms == Approx(52.0).epsilon(1e-12));
    CHECK(capped.summary.live_peak_bytes == 2510);
}
