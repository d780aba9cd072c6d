// The node's links and disks (docs/tiers.md): each link direction's and disk's bytes and
// busy time (the time at least one request occupied it) on the hand-worked traces of
// test_tiers.cpp, worked out on paper. Links: 1000 B/ms each way; disk: 100 B/ms.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "sim/app/run/run_config.h"
#include "sim/app/run/simulation.h"
#include "sim/scenario/scenario.h"
#include "sim/engine/engine.h"
#include "test_support.h"

using namespace memsim;
using test::overlap_trace;

namespace {

Scenario node(const std::string& policy, const std::string& platform) {
    return parse_scenario("workload: {synthetic: mlp}\nplatform: {disk: {bandwidth: 100000B/s}, host: {link: {bandwidth: "
                          "1000000B/s}" + platform + "\npolicy: " + policy + "\n",
                          "test");
}

const char* kOneUplink = "}, gpus_per_switch: 2, switch: {bandwidth: 1000000B/s}";

struct LinkSeen {
    std::uint64_t bytes;
    double busy_ms;
};

std::map<std::string, LinkSeen> links(const NodeFigures& n) {
    std::map<std::string, LinkSeen> out;
    for (const NodeFigures::Link& l : n.links) {
        CHECK(l.bytes_per_s == Approx(1e6).epsilon(1e-12));
        CHECK(l.utilisation == Approx(l.busy_ms / n.step_time_ms).epsilon(1e-12));
        out[l.name + " " + l.direction] = {l.bytes, l.busy_ms};
    }
    return out;
}

// The union of the log's intervals on one resource lane.
double busy_in_log(const EventLog& log, const std::string& lane) {
    std::vector<std::pair<double, double>> spans;
    for (const Activity& a : log.activities)
        if (a.lane == lane) spans.emplace_back(a.start_ms, a.end_ms);
    std::sort(spans.begin(), spans.end());
    double busy = 0, end = -1;
    for (const auto& [s, e] : spans) {
        if (s >= end) busy += e - s;
        else if (e > end) busy += e - end;
        end = std::max(end, e);
    }
    return busy;
}

void check_link(const std::map<std::string, LinkSeen>& seen, const std::string& lane, std::uint64_t bytes, double busy_ms) {
    INFO(lane);
    REQUIRE(seen.count(lane) == 1);
    CHECK(seen.at(lane).bytes == bytes);
    CHECK(seen.at(lane).busy_ms == Approx(busy_ms).epsilon(1e-9));
}

}  // namespace

TEST_CASE("node usage: two GPUs writing together through one uplink keep it busy from the first write's start to the end") {
    // Both GPUs: t0 5-7 (1000 B each at 500 B/ms on the shared uplink), t1 25-25.02, reads
    // of t0 25.02-27.02 and t1 27.02-27.04 (the uplink's other direction), step 32.04.
    // Every link direction is busy [5,7] + [25,25.02] = 2.02 ms one way and [25.02,27.04]
    // = 2.02 ms the other: each PCIe link moves its GPU's 1010 B, the uplink both GPUs' 2020 B.
    const RunResult r = simulate(overlap_trace(), node("{swap: {mode: async, placement: host}}", std::string(kOneUplink) + ", gpus: 2}"));
    REQUIRE(r.summary.node);
    const NodeFigures& n = *r.summary.node;
    CHECK(n.step_time_ms == Approx(32.04).epsilon(1e-12));
    const std::map<std::string, LinkSeen> seen = links(n);
    CHECK(seen.size() == 6);
    for (const char* lane : {"pcie0 d2h", "pcie0 h2d", "pcie1 d2h", "pcie1 h2d"}) check_link(seen, lane, 1010, 2.02);
    for (const char* lane : {"switch0 d2h", "switch0 h2d"}) check_link(seen, lane, 2020, 2.02);
    // The platform's order: GPU 0's route from its side, both directions of a link together.
    std::vector<std::string> order;
    for (const NodeFigures::Link& l : n.links) order.push_back(l.name + " " + l.direction);
    CHECK(order == std::vector<std::string>{"pcie0 d2h", "pcie0 h2d", "switch0 d2h", "switch0 h2d", "pcie1 d2h", "pcie1 h2d"});
    CHECK(n.links[0].utilisation == Approx(2.02 / 32.04).epsilon(1e-12));
    REQUIRE(n.disks.size() == 1);
    CHECK(n.disks[0].name == "disk0");
    CHECK(n.disks[0].busy_ms == 0);
    CHECK(n.disks[0].read_bytes + n.disks[0].write_bytes == 0);
    for (const auto& [lane, figures] : seen) CHECK(busy_in_log(r.log, lane) == Approx(figures.busy_ms).epsilon(1e-9));
}

TEST_CASE("node usage: staggered GPUs use the uplink one after the other: its busy time is the sum of the PCIe links'") {
    // Offset 2 ms: GPU 0 writes t0 5-6 and t1 25-25.01, reads 25.01-26.02; GPU 1 the same
    // 2 ms later (7-8, 27-27.01, 27.01-28.02); step 33.02. Each PCIe direction is busy
    // 1.01 ms; the uplink's never overlap, so 2.02 ms each way.
    const RunResult r = simulate(overlap_trace(), node("{swap: {mode: async, placement: host}}",
                                                       std::string(kOneUplink) + ", gpus: 2, gpu_offset_ms: 2ms}"));
    REQUIRE(r.summary.node);
    CHECK(r.summary.node->step_time_ms == Approx(33.02).epsilon(1e-12));
    const std::map<std::string, LinkSeen> seen = links(*r.summary.node);
    for (const char* lane : {"pcie0 d2h", "pcie0 h2d", "pcie1 d2h", "pcie1 h2d"}) check_link(seen, lane, 1010, 1.01);
    for (const char* lane : {"switch0 d2h", "switch0 h2d"}) check_link(seen, lane, 2020, 2.02);
    CHECK(r.summary.node->links[2].utilisation == Approx(2.02 / 33.02).epsilon(1e-12));
}

TEST_CASE("node usage: a staged disk swap occupies the link, then the disk (its I/O, not before), and back") {
    // Host RAM 1500 B, bounce (test_tiers.cpp): t0 to disk, link 5-6 then disk 6-16; t1 to
    // host 25-25.01; t0 back: disk 25.01-35.01 then link 35.01-36.01; t1 36.01-36.02; step
    // 41.02. pcie0: 1010 B and 1.01 ms each way; disk0: 1000 B each way, busy 20 ms.
    const Scenario s = node("{swap: {mode: async, placement: host_then_disk, path: bounce}}", ", memory: 1500B}}");
    const RunResult r = simulate(overlap_trace(), s);
    REQUIRE(r.summary.node);
    const NodeFigures& n = *r.summary.node;
    CHECK(n.step_time_ms == Approx(41.02).epsilon(1e-12));
    const std::map<std::string, LinkSeen> seen = links(n);
    CHECK(seen.size() == 2);
    check_link(seen, "pcie0 d2h", 1010, 1.01);
    check_link(seen, "pcie0 h2d", 1010, 1.01);
    REQUIRE(n.disks.size() == 1);
    CHECK(n.disks[0].write_bytes == 1000);
    CHECK(n.disks[0].read_bytes == 1000);
    CHECK(n.disks[0].busy_ms == Approx(20.0).epsilon(1e-9));
    CHECK(n.disks[0].utilisation == Approx(20.0 / 41.02).epsilon(1e-12));
    CHECK(busy_in_log(r.log, "disk0 write") + busy_in_log(r.log, "disk0 read") == Approx(20.0).epsilon(1e-9));

    SECTION("a run that records no events measures the same") {
        EngineConfig config = resolve_engine_config(s, overlap_trace());
        config.record_events = false;
        const Workload w = overlap_trace();
        const RunResult quiet = simulate(w, config, straight_plan(w));
        CHECK(quiet.log.activities.empty());
        REQUIRE(quiet.summary.node);
        REQUIRE(quiet.summary.node->links.size() == 2);
        CHECK(quiet.summary.node->links[0].busy_ms == Approx(1.01).epsilon(1e-9));
        CHECK(quiet.summary.node->links[1].busy_ms == Approx(1.01).epsilon(1e-9));
        CHECK(quiet.summary.node->disks[0].busy_ms == Approx(20.0).epsilon(1e-9));
    }
}

TEST_CASE("node usage: a direct disk swap occupies the link and the disk at once, each until its own end") {
    // Host RAM 1005 B, direct (test_tiers.cpp): t1 (10 B) to disk at 25: link 25-25.01 and
    // disk 25-25.1 together; back at 26.1: link 26.1-26.11, disk 26.1-26.2. t0 by host RAM:
    // link 5-6 and 25.1-26.1. pcie0: d2h 1010 B busy 1.01 ms; h2d 1010 B busy 1.01 ms; disk0
    // 10 B each way, busy 0.2 ms.
    const RunResult r = simulate(overlap_trace(), node("{swap: {mode: async, placement: host_then_disk, path: direct}}",
                                                       ", memory: 1005B}}"));
    REQUIRE(r.summary.node);
    const std::map<std::string, LinkSeen> seen = links(*r.summary.node);
    check_link(seen, "pcie0 d2h", 1010, 1.01);
    check_link(seen, "pcie0 h2d", 1010, 1.01);
    REQUIRE(r.summary.node->disks.size() == 1);
    CHECK(r.summary.node->disks[0].write_bytes == 10);
    CHECK(r.summary.node->disks[0].read_bytes == 10);
    CHECK(r.summary.node->disks[0].busy_ms == Approx(0.2).epsilon(1e-9));
}

TEST_CASE("node usage: a single GPU without a host link has no node figures and no resource lanes") {
    const Scenario s = parse_scenario("workload: {synthetic: mlp}\nplatform: {disk: {bandwidth: 100000B/s}}\npolicy: {swap: "
                                      "{mode: async}}\n",
                                      "test");
    const RunResult r = simulate(overlap_trace(), s);
    CHECK_FALSE(r.summary.node);
    CHECK_FALSE(r.log.node);
    for (const Activity& a : r.log.activities) CHECK_FALSE(is_resource_lane(a.key));
}
