// The node of docs/tiers.md on tiny traces whose timelines are worked out on paper.
// Disk: 100 B/ms both ways; each GPU's PCIe link: 1000 B/ms, no latency.
#include <catch2/catch.hpp>

#include "sim/report/activity_labels.h"
#include "sim/report/events_csv.h"
#include "sim/scenario/scenario.h"
#include "sim/app/run/simulation.h"
#include "golden_support.h"
#include "log_support.h"
#include "test_support.h"

using namespace memsim;
using test::first_in_lane;
using test::overlap_trace;

namespace {

RunResult run_tiers(const Workload& w, const std::string& policy, const std::string& platform = "") {
    const Scenario s = parse_scenario("workload: {synthetic: mlp}\nplatform: {disk: {bandwidth: 100000B/s}, host: {link: "
                                      "{bandwidth: 1000000B/s}" + platform + "}}\npolicy: " + policy + "\n",
                                      "test");
    return simulate(w, s);
}

std::uint64_t host_bytes_at(const RunResult& r, double ms) {
    std::uint64_t bytes = 0;
    for (const HostSample& s : r.log.host_memory)
        if (s.time_ms <= ms + 1e-9) bytes = s.bytes_in_use;
    return bytes;
}

}  // namespace

TEST_CASE("tiers: host placement moves swaps over the PCIe link at its bandwidth") {
    // op0 0-5; host write t0 (1000 B at 1000 B/ms) 5-6 during op1 5-25; host write t1 25-25.01.
    // op2 reads t0 behind it: 25.01-26.01, then t1 26.01-26.02; op2 26.02-31.02, stall 1.02.
    const RunResult r = run_tiers(overlap_trace(), "{swap: {mode: async, placement: host}}");
    test::check_golden_run("timelines/tiers/host_async", r);
    CHECK(r.summary.status == "ok");
    CHECK(r.summary.time_ms == Approx(31.02).epsilon(1e-12));
    CHECK(r.summary.stall_ms == Approx(1.02).epsilon(1e-12));
    REQUIRE(r.summary.node);
    CHECK(r.summary.node->step_time_ms == r.summary.time_ms);
    CHECK(r.summary.node->tiers[kHostRamTier].bytes_in == 1010);
    CHECK(r.summary.node->tiers[kHostRamTier].bytes_read == 1010);
    CHECK(r.summary.node->tiers[kDiskTier].bytes_in == 0);
    // t0 is taken at 5 and t1 at 25; t0 leaves at 26.01, t1 at 26.02.
    CHECK(r.summary.node->host_peak_bytes == 1010);
    CHECK(host_bytes_at(r, 24.9) == 1000);
    CHECK(host_bytes_at(r, 26.015) == 10);
    CHECK(host_bytes_at(r, 26.03) == 0);
}

TEST_CASE("tiers: a swap-out that does not fit spills to the disk and comes back from it") {
    // Host RAM 1005 B, direct path: t0 (1000 B) fits; t1 (10 B) finds 5 B free and goes to
    // the disk: link 0.01 ms and disk 0.1 ms together, 25-25.1. op2 reads t0 from host
    // 25.1-26.1, then t1 from disk 26.1-26.2; op2 26.2-31.2.
    const RunResult r = run_tiers(overlap_trace(), "{swap: {mode: async, placement: host_then_disk, path: direct}}",
                                  ", memory: 1005B");
    test::check_golden_run("timelines/tiers/spill_direct", r);
    CHECK(r.summary.time_ms == Approx(31.2).epsilon(1e-12));
    REQUIRE(r.summary.node);
    CHECK(r.summary.node->tiers[kHostRamTier].bytes_in == 1000);
    CHECK(r.summary.node->tiers[kDiskTier].bytes_in == 10);
    CHECK(r.summary.node->tiers[kDiskTier].bytes_read == 10);
    CHECK(r.summary.node->host_peak_bytes == 1000);
}

TEST_CASE("tiers: the bounce buffer holds host RAM from a disk swap's issue to its end") {
    // Host RAM 1500 B, host_then_disk keeps room to stage: t0 needs 1000 + 1000 > 1500, so
    // the disk, staged: link 5-6 then disk 6-16, buffer 1000 B from 5 to 16. t1 (10 + 10
    // fits) to host 25-25.01. op2 reads t0 from disk: buffer from 25, disk 25.01-35.01, link
    // 35.01-36.01 (buffer gone); t1 from host 36.01-36.02; op2 36.02-41.02.
    const RunResult r = run_tiers(overlap_trace(), "{swap: {mode: async, placement: host_then_disk, path: bounce}}",
                                  ", memory: 1500B");
    test::check_golden_run("timelines/tiers/bounce_buffer", r);
    CHECK(r.summary.time_ms == Approx(41.02).epsilon(1e-12));
    REQUIRE(r.summary.node);
    CHECK(r.summary.node->tiers[kDiskTier].bytes_in == 1000);
    CHECK(r.summary.node->tiers[kHostRamTier].bytes_in == 10);
    CHECK(host_bytes_at(r, 4.9) == 0);
    CHECK(host_bytes_at(r, 5.0) == 1000);
    CHECK(host_bytes_at(r, 15.9) == 1000);
    CHECK(host_bytes_at(r, 16.0) == 0);
    CHECK(host_bytes_at(r, 25.0) == 1010);
    CHECK(host_bytes_at(r, 36.0) == 1010);
    CHECK(host_bytes_at(r, 36.015) == 10);
    CHECK(r.summary.node->host_peak_bytes == 1010);
}

TEST_CASE("tiers: host placement stops the run when host RAM is full, naming the tensor and the host's state") {
    const RunResult r = run_tiers(overlap_trace(), "{swap: {mode: async, placement: host}}", ", memory: 1005B");
    CHECK(r.summary.status == "host_full");
    CHECK_THAT(r.summary.message, Catch::Contains("tensor 1 (10 B) does not fit in host RAM") &&
                                      Catch::Contains("host RAM holds 1000 B of 1005 B"));
}

TEST_CASE("tiers: a host link with the disk placement takes the disk through the link, staged") {
    // Bounce, unlimited host: write t0: link 1 ms then disk 10 ms, 5-16; t1 25-25.11
    // (0.01 + 0.1). op2: t0 25.11-36.11, t1 36.11-36.22; op2 36.22-41.22.
    const RunResult r = run_tiers(overlap_trace(), "{swap: {mode: async}}");
    CHECK(r.summary.time_ms == Approx(41.22).epsilon(1e-12));
    REQUIRE(r.summary.node);
    CHECK(r.summary.node->tiers[kDiskTier].bytes_in == 1010);
    CHECK(r.summary.node->tiers[kHostRamTier].bytes_in == 0);
}

namespace {

RunResult run_node(const Workload& w, const std::string& policy, const std::string& platform) {
    const Scenario s = parse_scenario("workload: {synthetic: mlp}\nplatform: {disk: {bandwidth: 100000B/s}, " + platform +
                                          "}\npolicy: " + policy + "\n",
                                      "test");
    return simulate(w, s);
}

}  // namespace

// PCIe links 1e6 B/s each; one uplink of B = 1000 B/ms for both GPUs. X = 1000 B (t0).
const char* kOneUplink = "host: {link: {bandwidth: 1000000B/s}}, gpus_per_switch: 2, switch: {bandwidth: 1000000B/s}";

TEST_CASE("tiers: one GPU alone behind a switch uplink of bandwidth B writes X bytes in X/B") {
    // t0 5-6, as without the switch (the first test case).
    const RunResult one = run_node(overlap_trace(), "{swap: {mode: async, placement: host}}", kOneUplink);
    CHECK(first_in_lane(one, "host_write").end_ms == Approx(6.0).epsilon(1e-12));
    CHECK(one.summary.time_ms == Approx(31.02).epsilon(1e-12));
}

TEST_CASE("tiers: two GPUs writing X bytes each through one switch uplink of bandwidth B finish at 2X/B") {
    const std::string links = kOneUplink;
    // Two GPUs: both write t0 from 5, 500 B/ms each, to 7 (2X/B). t1 (10 B each) 25-25.02;
    // the reads of t0 share the uplink's other direction: 25.02-27.02; t1 27.02-27.04;
    // op2 27.04-32.04 on both.
    const RunResult two = run_node(overlap_trace(), "{swap: {mode: async, placement: host}}", links + ", gpus: 2");
    test::check_golden_run("timelines/tiers/two_gpus_one_uplink", two);
    CHECK(first_in_lane(two, "host_write").end_ms == Approx(7.0).epsilon(1e-12));
    REQUIRE(two.summary.node);
    REQUIRE(two.summary.node->gpus.size() == 2);
    CHECK(two.summary.status == "ok");
    CHECK(two.summary.node->gpus[1].status == "ok");
    CHECK(two.summary.node->gpus[0].time_ms == Approx(32.04).epsilon(1e-12));
    CHECK(two.summary.node->gpus[1].time_ms == Approx(32.04).epsilon(1e-12));
    CHECK(two.summary.node->step_time_ms == Approx(32.04).epsilon(1e-12));
    CHECK(two.summary.node->tiers[kHostRamTier].bytes_in == 2020);
    CHECK(two.summary.node->host_peak_bytes == 2020);
}

TEST_CASE("tiers: staggered GPUs contend less: GPU 1 starting 2 ms late writes alone") {
    // Offset 2 ms: GPU 0 writes t0 5-6 alone; GPU 1's write starts at 7 and ends at 8.
    // GPU 1 ends 2 ms after GPU 0: 31.02 and 33.02 (their t1 writes and reads never meet).
    const std::string links = kOneUplink;
    const RunResult r = run_node(overlap_trace(), "{swap: {mode: async, placement: host}}", links + ", gpus: 2, gpu_offset_ms: 2ms");
    REQUIRE(r.summary.node);
    CHECK(first_in_lane(r, "host_write").end_ms == Approx(6.0).epsilon(1e-12));
    CHECK(r.summary.node->gpus[0].time_ms == Approx(31.02).epsilon(1e-12));
    CHECK(r.summary.node->gpus[1].time_ms == Approx(33.02).epsilon(1e-12));
    CHECK(r.summary.node->step_time_ms == Approx(33.02).epsilon(1e-12));
}

TEST_CASE("tiers: two GPUs writing to one disk share it") {
    // Direct path, disk 100 B/ms, links 1000 B/ms: t0 (1000 B) alone takes the disk's 10 ms,
    // 5-15; two GPUs on one disk share it: 5-25.
    const RunResult r = run_node(overlap_trace(), "{swap: {mode: async, path: direct}}",
                                 "host: {link: {bandwidth: 1000000B/s}}, gpus: 2");
    CHECK(first_in_lane(r, "disk_write").end_ms == Approx(25.0).epsilon(1e-12));
    REQUIRE(r.summary.node);
    CHECK(r.summary.node->tiers[kDiskTier].bytes_in == 2020);
}

TEST_CASE("tiers: with platform.disks each GPU swaps to its own disk") {
    const Scenario s = parse_scenario("workload: {synthetic: mlp}\nplatform: {disks: [{bandwidth: 100000B/s}, {bandwidth: "
                                      "100000B/s}], host: {link: {bandwidth: 1000000B/s}}, gpus: 2}\npolicy: {swap: {mode: "
                                      "async, path: direct}}\n",
                                      "test");
    const RunResult r = simulate(overlap_trace(), s);
    CHECK(first_in_lane(r, "disk_write").end_ms == Approx(15.0).epsilon(1e-12));
}

TEST_CASE("tiers: a tensor evicted for the budget to host RAM is marked with host RAM, in its label and tier column") {
    // The on-demand trace of test_swap_budget.cpp with host placement: op2 at 2 needs
    // 1000 B, t0 is locked, t1 (1000 B) is evicted to host RAM over the 1000 B/ms link
    // (write 2-3, stall 1); op2 3-4 frees t0; op3 reads t1 back 4-5 (stall 1), runs 5-6.
    const Workload w =
        test::WorkloadBuilder().op(1, 1000, {}, {}).op(1, 1000, {}, {}).op(1, 1000, {0}, {0}).op(1, 10, {1}, {1, 2}).build(1);
    const Scenario s = parse_scenario(
        "workload: {synthetic: mlp}\nplatform: {disk: {bandwidth: 100000B/s}, host: {link: "
        "{bandwidth: 1000000B/s}}, memory: {budget: 2500B}}\n"
        "policy: {allocator: os, swap: {mode: async, select: budget, placement: host}}\n",
        "test");
    const RunResult r = simulate(w, s);
    CHECK(r.summary.status == "ok");
    CHECK(r.summary.evictions_to_disk == 1);
    CHECK(r.summary.time_ms == Approx(6.0).epsilon(1e-12));
    REQUIRE(r.log.marks.size() == 1);
    CHECK(r.log.marks[0].kind == mark::kEvictToDisk);
    CHECK(r.log.marks[0].tier == kHostRamTier);
    CHECK(r.log.marks[0].time_ms == Approx(2.0).epsilon(1e-12));
    CHECK(mark_label(r.log.marks[0], TensorNames(&w)) == "evict tensor 1 (1000 B) to host RAM");
    const std::string csv = events_csv(r.log, &w);
    INFO(csv);
    CHECK(csv.find("mark,evict_to_disk,2.000000,,,2,evict tensor 1 (1000 B) to host RAM,1,1000,,,,0,host,\n") !=
          std::string::npos);
}
