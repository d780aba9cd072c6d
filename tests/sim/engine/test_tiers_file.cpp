// The node of docs/tiers.md described by a SimGrid platform file (platform.file) runs
// exactly as the same node described with YAML keys: the timelines of test_tiers.cpp,
// worked out on paper there and again here.
#include <catch2/catch.hpp>

#include "sim/app/run/simulation.h"
#include "sim/scenario/scenario.h"
#include "golden_support.h"
#include "log_support.h"
#include "platform_xml_support.h"
#include "test_support.h"

using namespace memsim;
using test::first_in_lane;
using test::overlap_trace;

namespace {

RunResult run_file(const std::string& xml, const std::string& policy) {
    const std::string file = test::write_platform_xml("node", xml).string();
    const Scenario s = parse_scenario("workload: {synthetic: mlp}\nplatform: {file: " + file + "}\npolicy: " + policy + "\n", "test");
    return simulate(overlap_trace(), s);
}

}  // namespace

TEST_CASE("tiers file: two GPUs through one uplink from a platform file give the YAML node's times exactly") {
    // kTwoGpusOneUplinkXml is test_tiers.cpp's kOneUplink with gpus: 2: links and uplink of
    // B = 1e6 B/s = 1000 B/ms. Both GPUs write t0 (X = 1000 B) from 5 ms, 500 B/ms each on
    // the shared uplink, to 7 (2X/B). t1 (10 B each) 25-25.02; the reads of t0 share the
    // uplink's other direction: 25.02-27.02; t1 27.02-27.04; op2 27.04-32.04 on both.
    const RunResult r = run_file(test::kTwoGpusOneUplinkXml, "{swap: {mode: async, placement: host}}");
    // Byte for byte the outputs of the node built from YAML keys (test_tiers.cpp).
    test::check_golden_run("timelines/tiers/two_gpus_one_uplink", r);
    CHECK(first_in_lane(r, "host_write").start_ms == Approx(5.0).epsilon(1e-12));
    CHECK(first_in_lane(r, "host_write").end_ms == Approx(7.0).epsilon(1e-12));
    CHECK(first_in_lane(r, "host_read").end_ms == Approx(27.02).epsilon(1e-12));
    REQUIRE(r.summary.node);
    REQUIRE(r.summary.node->gpus.size() == 2);
    CHECK(r.summary.node->gpus[0].time_ms == Approx(32.04).epsilon(1e-12));
    CHECK(r.summary.node->gpus[1].time_ms == Approx(32.04).epsilon(1e-12));
    CHECK(r.summary.node->step_time_ms == Approx(32.04).epsilon(1e-12));
    CHECK(r.summary.node->tiers[kHostRamTier].bytes_in == 2020);
}

TEST_CASE("tiers file: a disk's latency comes from its props, and two GPUs share the disk") {
    // Direct path, disk 100 B/ms with a 1 ms write latency (prop write_latency), links
    // 1000 B/ms: each GPU waits the latency, 5-6, then both t0 writes (1000 B each) share
    // the disk: 2000 B at 100 B/ms, 6-26 (the links, 500 B/ms each, are not the bound).
    // t1's writes, queued at 25 behind t0's, are cancelled as op2 needs t1 at 25: only
    // the two t0 reach the disk (without the latency, t0 ends at 25 and t1 goes too).
    const std::string xml = test::replaced(test::kTwoGpusOneUplinkXml, R"(write_bw="100kBps"/>)",
                                           R"(write_bw="100kBps"><prop id="write_latency" value="1ms"/></disk>)");
    const RunResult r = run_file(xml, "{swap: {mode: async, path: direct}}");
    CHECK(first_in_lane(r, "disk_write").start_ms == Approx(5.0).epsilon(1e-12));
    CHECK(first_in_lane(r, "disk_write").end_ms == Approx(26.0).epsilon(1e-12));
    REQUIRE(r.summary.node);
    CHECK(r.summary.node->tiers[kDiskTier].bytes_in == 2000);
}

TEST_CASE("tiers file: in a Floyd zone SimGrid takes the declared route as memsim read it, latencies included") {
    // gpu0 -> host over pcie0 (1e6 B/s = 1000 B/ms, no latency) then up (1000 B/ms, 1 ms):
    // each transfer takes 1 ms + bytes / (1000 B/ms). op0 0-5; write t0 (1000 B) 5-7
    // during op1 5-25; write t1 (10 B) 25-26.01; op2 reads t0 26.01-28.01, then t1
    // 28.01-29.02; op2 29.02-34.02.
    const std::string xml = R"(<?xml version="1.0"?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <zone id="node" routing="Floyd">
    <host id="host" speed="1kf"><disk id="disk0" read_bw="100kBps" write_bw="100kBps"/></host>
    <host id="gpu0" speed="1kf"/>
    <link id="pcie0" bandwidth="1MBps" latency="0s" sharing_policy="SPLITDUPLEX"/>
    <link id="up" bandwidth="1MBps" latency="1ms" sharing_policy="SPLITDUPLEX"/>
    <route src="gpu0" dst="host"><link_ctn id="pcie0" direction="UP"/><link_ctn id="up" direction="UP"/></route>
  </zone>
</platform>
)";
    const RunResult r = run_file(xml, "{swap: {mode: async, placement: host}}");
    CHECK(first_in_lane(r, "host_write").start_ms == Approx(5.0).epsilon(1e-12));
    CHECK(first_in_lane(r, "host_write").end_ms == Approx(7.0).epsilon(1e-12));
    CHECK(first_in_lane(r, "host_read").start_ms == Approx(26.01).epsilon(1e-12));
    CHECK(first_in_lane(r, "host_read").end_ms == Approx(28.01).epsilon(1e-12));
    CHECK(r.summary.time_ms == Approx(34.02).epsilon(1e-12));
}

TEST_CASE("hostile platform: SimGrid runs the copy memsim checked, not whatever the path holds by then") {
    // The file is replaced between the check and the run by one that would abort SimGrid
    // (a state file, a speed of 312Tf): SimGrid loads memsim's copy of what was checked,
    // so the run is the first test's, 32.04 ms, and nothing else is opened.
    const std::filesystem::path file = test::write_platform_xml("swapped", test::kTwoGpusOneUplinkXml);
    const Scenario s = parse_scenario("workload: {synthetic: mlp}\nplatform: {file: " + file.string() +
                                          "}\npolicy: {swap: {mode: async, placement: host}}\n", "test");
    std::ofstream(file) << test::replaced(test::kTwoGpusOneUplinkXml, R"(<host id="gpu1" speed="1kf"/>)",
                                          R"(<host id="gpu1" speed="312Tf" state_file="off.txt"/>)");
    const RunResult r = simulate(overlap_trace(), s);
    REQUIRE(r.summary.node);
    CHECK(r.summary.node->step_time_ms == Approx(32.04).epsilon(1e-12));
}
