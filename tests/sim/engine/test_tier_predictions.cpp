// The engine's predictions on the node of docs/tiers.md time a swap on the tier the
// tensor goes to: the bandwidth-aware selection's plan and the hybrid rule's round trip.
// Disk: 100 B/ms (or 1 B/ms) both ways; each GPU's PCIe link: 1000 B/ms, no latency.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include "sim/scenario/scenario.h"
#include "sim/app/run/simulation.h"
#include "recompute_workloads.h"
#include "test_support.h"

using namespace memsim;

namespace {

RunResult run_on(const Workload& w, const std::string& policy, const std::string& platform) {
    const Scenario s = parse_scenario("workload: {synthetic: mlp}\nplatform: {" + platform + "}\npolicy: " + policy + "\n", "test");
    return simulate(w, s);
}

// op0 t0 1000 B 0-5; op1 10 B 5-10 (freed); op2 2000 B 10-15 (freed): the peak, 3000 B
// with t0 idle; op3 10 B 15-20 (backward, freed); op4 reads t0 20-25.
Workload idle_map() {
    return test::WorkloadBuilder()
        .op(5, 1000, {}, {})
        .op(5, 10, {}, {1})
        .op(5, 2000, {}, {2})
        .op(5, 10, {}, {3})
        .op(5, 10, {0}, {0, 4})
        .build(3);
}

const char* const kNode = "disk: {bandwidth: 100000B/s}, host: {link: {bandwidth: 1000000B/s}}";

}  // namespace

TEST_CASE("tier predictions: the hideable selection times a swap over the PCIe link when it goes to host RAM") {
    // Planned on host RAM (1000 B/ms): t0 written 5-6, before op2 (the peak) starts at 10;
    // read after the forward pass, 15-16, before op4 at 20: hidden, so taken. On the raw
    // disk (100 B/ms) the write would end at 15, 5 ms into op2: exposed, not taken.
    const RunResult host = run_on(idle_map(), "{swap: {mode: async, select: hideable, placement: host}}", kNode);
    CHECK(host.summary.status == "ok");
    CHECK(host.summary.swap_selected_tensors == 1);
    REQUIRE(host.summary.node);
    CHECK(host.summary.node->tiers[kHostRamTier].bytes_in == 1000);
    CHECK(host.summary.node->tiers[kHostRamTier].bytes_read == 1000);
    CHECK(host.summary.time_ms == Approx(25.0).epsilon(1e-12));
    CHECK(host.summary.stall_ms == Approx(0.0).margin(1e-12));
    // To the disk through the link, staged: 1 / (1/1000 + 1/100) = 90.9 B/ms, the write
    // ends at 16: exposed, nothing is swapped.
    const RunResult disk = run_on(idle_map(), "{swap: {mode: async, select: hideable}}", kNode);
    CHECK(disk.summary.swap_selected_tensors == 0);
    CHECK(disk.summary.bytes_written == 0);
}

TEST_CASE("tier predictions: the hybrid round trip is that of the tier the victim would go to") {
    // The recompute engine's four candidates (test_recompute_engine.cpp): lru evicts x0
    // (1 B, producer 1 ms) at op5, 1 ms of compute before its next use. Disk 1 B/ms,
    // direct path. lifetime with split 3 ms: every planned window is at least 5.1 ms long,
    // so the plan sees only the disk (the slow case there: no plan), and x0 goes to host
    // RAM: a round trip of 1 B / 1000 B/ms each way = 0.002 ms < 1 ms, swapped. Timed on
    // the disk (1 + 1 ms > 1 ms) it was dropped and recomputed.
    const Workload w = test::four_candidates();
    const std::string platform = "memory: {budget: 15B}, disk: {bandwidth: 1000B/s}, host: {link: {bandwidth: 1000000B/s}}";
    const RunResult r = run_on(w,
                               "{allocator: os, hybrid: true, recompute: {heuristic: lru}, swap: {mode: async, path: direct, "
                               "placement: {lifetime: {split: 3ms}}}}",
                               platform);
    CHECK(r.summary.status == "ok");
    CHECK(r.summary.swap_selected_tensors == 0);
    CHECK(r.summary.details.at("hybrid_swapped") == 1);
    CHECK(r.summary.details.at("hybrid_dropped") == 0);
    CHECK(r.summary.recomputed_ops == 0);
    REQUIRE(r.summary.node);
    CHECK(r.summary.node->tiers[kHostRamTier].bytes_in == 1);
    CHECK(r.summary.node->tiers[kDiskTier].bytes_in == 0);
    // With every swap on the disk the same eviction is dropped, as without a node.
    const RunResult disk = run_on(
        w, "{allocator: os, hybrid: true, recompute: {heuristic: lru}, swap: {mode: async, path: direct}}", platform);
    CHECK(disk.summary.details.at("hybrid_dropped") == 1);
    CHECK(disk.summary.recomputed_ops == 1);
}

TEST_CASE("tier predictions: the platform's tiers are host RAM then the disks, rows built from today's keys") {
    const Scenario s = parse_scenario("workload: {synthetic: mlp}\nplatform: {gpus: 2, disks: [{bandwidth: 100000B/s}, "
                                      "{bandwidth: 200000B/s}], host: {link: {bandwidth: 1000000B/s}, memory: 1005B}}\n",
                                      "test");
    const std::vector<TierSpec> tiers = s.platform.tiers();
    REQUIRE(tiers.size() == 2);
    CHECK(tiers[kHostRamTier].key == "host");
    CHECK(tiers[kHostRamTier].capacity == std::optional<std::uint64_t>(1005));
    CHECK(tiers[kHostRamTier].devices.empty());  // the route alone
    CHECK(tiers[kDiskTier].key == "disk");
    CHECK_FALSE(tiers[kDiskTier].capacity);
    REQUIRE(tiers[kDiskTier].devices.size() == 2);
    CHECK(tiers[kDiskTier].devices[1].write_bytes_per_s == 200000);
    CHECK(tiers[kDiskTier].staged_by_path);
}
