// Storages and views (docs/workloads.md, "Storages and views"): a tensor read in the
// backward pass only through a view is still read, in every semantics. Traces worked out
// on paper; disk 100 B/ms both ways; allocator os (footprint = live bytes).
#include <catch2/catch.hpp>

#include <filesystem>

#include "sim/app/run/simulation.h"
#include "sim/scenario/scenario.h"
#include "storage_checks.h"
#include "storage_policies.h"
#include "test_support.h"

using namespace memsim;

namespace {

// Forward: op0 makes t0 (1000 B, 5 ms), op1 views it as t1 (1 ms), op2 makes t2 (1000 B,
// 5 ms). Backward: op3 reads t2 (10 B out, 5 ms; t2 released), op4 reads t0 only through
// its view t1 (10 B out, 5 ms; t0 and t1 released).
Workload view_read_in_backward() {
    return test::WorkloadBuilder()
        .op(5, 1000, {}, {})
        .view(1, 0)
        .op(5, 1000, {}, {})
        .op(5, 10, {2}, {2})
        .op(5, 10, {1}, {0, 1})
        .build(3);
}

RunResult run_views(const Workload& w, const std::string& semantics, const std::string& budget) {
    const Scenario s = parse_scenario("workload: {synthetic: mlp}\n"
                                      "platform: {disk: {bandwidth: 100000B/s}, memory: {budget: " + budget + "}}\n"
                                      "policy: {allocator: os, semantics: " + semantics +
                                          ", swap: {mode: async, select: budget, prefetch: eager}}\n",
                                      "test");
    return simulate(w, s);
}

}  // namespace

TEST_CASE("storages and views: a storage read later only through a view is swapped out and read back, in both semantics") {
    // Live bytes during ops: 1000, 1000, 2000, 2010, 1020; budget 1500. t0's storage is read
    // by op1 (the view op) and, through t1, by op4: its window is out after op1, in for op4,
    // absent over ops 2-3, which covers the worst op (op3): taken. t2's window (out after
    // op2, in for op3) is empty.
    // Run: op0 0-5, op1 5-6, write t0 6-16; op2 needs 1000 B (1000 + 1000 > 1500): waits for
    // the write, t0 freed at 16, op2 16-21. op3 21-26 (the read of t0 does not fit beside
    // t2), t2 released: 10 B live. op4 reads t0 back 26-36 (stall 10) and runs 36-41.
    const Workload w = view_read_in_backward();
    for (const std::string semantics : {"simulated", "dtr"}) {
        INFO("semantics " << semantics);
        const RunResult r = run_views(w, semantics, "1500B");
        CHECK(r.summary.status == "ok");
        CHECK(r.summary.swap_selected_tensors == 1);
        CHECK(r.summary.bytes_written == 1000);
        CHECK(r.summary.bytes_read == 1000);
        CHECK(r.summary.time_ms == Approx(41.0).epsilon(1e-12));
        CHECK(r.summary.live_peak_bytes == 1020);
        const test::StorageCheckCounts counts = test::check_storage_reads(w, r);
        CHECK(counts.swapped_and_read == 1);
        CHECK(counts.reads_checked == 3);  // op1 reads t0, op3 t2, op4 t1 (t0's storage)
    }
}

TEST_CASE("storages and views: every swap policy reads back what a later operator reads through a view, on the traced logs") {
    int swapped_and_read = 0;
    for (const std::string log : {"resnet18_b2.log", "mobilenet_v2_b8.log", "gpt_b8.log"})
        swapped_and_read += test::check_every_swap_policy((std::filesystem::path(MEMSIM_SOURCE_DIR) / "examples/traced" / log).string());
    CHECK(swapped_and_read > 0);  // the runs do swap storages that are read again
}
