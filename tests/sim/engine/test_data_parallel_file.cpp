// Data-parallel ranks on a node described by a SimGrid platform file (docs/parallel.md,
// "A platform file"): the collectives take the file's GPU-to-GPU routes, and a file
// that leaves a pair of GPUs unrouted is refused by name before SimGrid sees it.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include "models/workload/input_error.h"
#include "sim/app/run/simulation.h"
#include "sim/scenario/scenario.h"
#include "platform_xml_support.h"
#include "test_support.h"

using namespace memsim;

namespace {

// test_data_parallel.cpp's node below one switch, as XML: four GPUs, each PCIe link
// 1000 B/ms each way with 0.01 ms of latency, one uplink; GPU i reaches GPU j over its
// link up and j's link down (symmetrical routes: the way back is j's up and i's down).
// `skip` leaves one GPU pair without a route ("" keeps every pair).
std::string four_gpus_xml(const std::string& skip = "") {
    std::string hosts, links, routes;
    for (int g = 0; g < 4; ++g) {
        hosts += fmt::format("    <host id=\"gpu{}\" speed=\"1kf\"/>\n", g);
        links += fmt::format("    <link id=\"pcie{}\" bandwidth=\"1MBps\" latency=\"10us\" sharing_policy=\"SPLITDUPLEX\"/>\n",
                             g);
        routes += fmt::format(
            "    <route src=\"gpu{0}\" dst=\"host\"><link_ctn id=\"pcie{0}\" direction=\"UP\"/>"
            "<link_ctn id=\"switch0\" direction=\"UP\"/></route>\n",
            g);
    }
    for (int i = 0; i < 4; ++i)
        for (int j = i + 1; j < 4; ++j) {
            if (fmt::format("gpu{}-gpu{}", i, j) == skip) continue;
            routes += fmt::format(
                "    <route src=\"gpu{0}\" dst=\"gpu{1}\"><link_ctn id=\"pcie{0}\" direction=\"UP\"/>"
                "<link_ctn id=\"pcie{1}\" direction=\"DOWN\"/></route>\n",
                i, j);
        }
    return "<?xml version=\"1.0\"?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
           "<platform version=\"4.1\">\n  <zone id=\"node\" routing=\"Full\">\n"
           "    <host id=\"host\" speed=\"1kf\"><disk id=\"disk0\" read_bw=\"100kBps\" write_bw=\"100kBps\"/></host>\n" +
           hosts + links + "    <link id=\"switch0\" bandwidth=\"1MBps\" latency=\"0s\" sharing_policy=\"SPLITDUPLEX\"/>\n" +
           routes + "  </zone>\n</platform>\n";
}

// op0 makes the gradient g (4000 B) in 1 ms; op1, the optimizer, reads it for 1 ms.
Workload one_gradient_trace() {
    Workload w = test::WorkloadBuilder().op(1, 4000, {}, {}).op(1, 10, {0}, {0}).build(0);
    w.tensors[0].role = TensorRole::gradient;
    return w;
}

RunResult run_file(const std::string& xml, const std::string& policy) {
    const std::string file = test::write_platform_xml("ranks", xml).string();
    const Scenario s = parse_scenario("workload: {synthetic: mlp}\nplatform: {file: " + file + "}\npolicy: " + policy + "\n",
                                      "test");
    return simulate(one_gradient_trace(), s);
}

}  // namespace

TEST_CASE("data parallel file: the ring takes the file's GPU-to-GPU routes, as on the node built from keys") {
    // As test_data_parallel.cpp works it out below one switch: N = 4, S = 4000 B, 6 steps
    // of 1000 B at 1000 B/ms over a two-link route (0.02 ms): 6.12 ms from op0's end at
    // 1, op1 7.12-8.12; every PCIe link 6000 B each way, the uplink nothing.
    const RunResult r = run_file(four_gpus_xml(), "{data_parallel: {zero: 0, bucket: whole}}");
    REQUIRE(r.summary.status == "ok");
    CHECK(r.summary.time_ms == Approx(8.12).epsilon(1e-9));
    REQUIRE(r.summary.node);
    for (const NodeFigures::Gpu& g : r.summary.node->gpus) {
        REQUIRE(g.rank);
        CHECK(g.rank->collective_bytes == 6000);
        CHECK(g.rank->exposed_collective_ms == Approx(6.12).epsilon(1e-9));
    }
    int pcie = 0;
    for (const NodeFigures::Link& l : r.summary.node->links) {
        if (l.name == "switch0") {
            CHECK(l.bytes == 0);
            continue;
        }
        ++pcie;
        CHECK(l.bytes == 6000);
        CHECK(l.busy_ms == Approx(6.12).epsilon(1e-9));
    }
    CHECK(pcie == 8);  // four links, both directions
}

TEST_CASE("data parallel file: a file with a pair of GPUs unrouted is refused naming the pair, without data parallel it runs") {
    const std::string xml = four_gpus_xml("gpu1-gpu3");
    try {
        (void)run_file(xml, "{data_parallel: {zero: 0}}");
        FAIL("no error");
    } catch (const InputError& e) {
        CHECK_THAT(e.what(), Catch::Contains("ranks.xml: element 'route src=\"gpu1\" dst=\"gpu3\"': missing: no route from "
                                             "gpu1 to gpu3"));
        CHECK_THAT(e.what(), Catch::Contains("policy.data_parallel's collectives send from every GPU to every other"));
    }
    // The replicas of a run without data parallelism never send GPU to GPU.
    const RunResult r = run_file(xml, "{}");
    CHECK(r.summary.status == "ok");
    CHECK(r.summary.time_ms == Approx(2).epsilon(1e-9));
}
