// platform.file (docs/tiers.md, "A platform file"): the SimGrid XML read for its GPUs,
// disks and routes, and every way it can be wrong refused with the file, the element and
// what is missing, before SimGrid (which aborts on many of them) sees it.
#include <catch2/catch.hpp>

#include "sim/scenario/platform_xml.h"
#include "sim/scenario/scenario.h"
#include "models/workload/input_error.h"
#include "platform_xml_support.h"

using namespace memsim;
using test::kTwoGpusOneUplinkXml;
using test::replaced;

namespace {

std::string error_message(const std::string& name, const std::string& text) {
    const std::string file = test::write_platform_xml(name, text).string();
    try {
        (void)read_platform_xml(file);
    } catch (const InputError& e) {
        CHECK_THAT(e.what(), Catch::StartsWith(file + ": "));
        return e.what();
    }
    FAIL("no InputError thrown");
    return {};
}

std::string scenario_error(const std::string& platform) {
    try {
        (void)parse_scenario("workload: {synthetic: mlp}\nplatform: " + platform + "\n", "t.yaml");
    } catch (const InputError& e) {
        return e.what();
    }
    FAIL("no InputError thrown");
    return {};
}

}  // namespace

TEST_CASE("platform xml: the GPUs, the host's disks and each GPU's route are read with SimGrid's units") {
    // pcie0 1 MBps 2 us, switch0 0.5 MBps 3 us: gpu0's route is 5e5 B/s (the uplink) and
    // 0.005 ms both ways; gpu1's link is 1 MBps, no latency, behind the same uplink.
    std::string text = replaced(kTwoGpusOneUplinkXml, R"(<link id="pcie0" bandwidth="1MBps" latency="0s")",
                                R"(<link id="pcie0" bandwidth="1MBps" latency="2us")");
    text = replaced(text, R"(<link id="switch0" bandwidth="1MBps" latency="0s")", R"(<link id="switch0" bandwidth="4Mbps" latency="3us")");
    text = replaced(text, R"(<disk id="disk0" read_bw="100kBps" write_bw="100kBps"/>)",
                    R"(<disk id="disk0" read_bw="3.2GBps" write_bw="1GiBps"><prop id="read_latency" value="12us"/>)"
                    R"(<prop id="write_latency" value="0.016ms"/></disk><disk id="disk1" read_bw="1kBps" write_bw="2kBps"/>)");
    const PlatformXml x = read_platform_xml(test::write_platform_xml("read", text).string());
    CHECK(x.gpus == 2);
    REQUIRE(x.routes.size() == 2);
    CHECK(x.routes[0].write_bytes_per_s == 5e5);
    CHECK(x.routes[0].read_bytes_per_s == 5e5);
    CHECK(x.routes[0].write_latency_ms == Approx(0.005).epsilon(1e-12));
    CHECK(x.routes[0].read_latency_ms == Approx(0.005).epsilon(1e-12));
    CHECK(x.routes[1].write_bytes_per_s == 5e5);
    CHECK(x.routes[1].write_latency_ms == Approx(0.003).epsilon(1e-12));
    REQUIRE(x.disks.size() == 2);
    CHECK(x.disks[0].read_bytes_per_s == 3.2e9);
    CHECK(x.disks[0].write_bytes_per_s == 1073741824.0);
    CHECK(x.disks[0].read_latency_ms == Approx(0.012).epsilon(1e-12));
    CHECK(x.disks[0].write_latency_ms == Approx(0.016).epsilon(1e-12));
    CHECK(x.disks[1].read_bytes_per_s == 1e3);
    CHECK(x.disks[1].write_bytes_per_s == 2e3);
    CHECK(x.disks[1].read_latency_ms == 0);
}

TEST_CASE("platform xml: a Floyd zone is read like a Full one, chains of routes and Dijkstra zones are refused") {
    // gpu0 -> host over pcie0 (1 MBps, 1 us) then up (2 MBps, 2 us): 1e6 B/s, 0.003 ms, both
    // ways (symmetrical).
    const std::string text = R"(<?xml version="1.0"?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <zone id="node" routing="Floyd">
    <host id="host" speed="1kf"><disk id="disk0" read_bw="1MBps" write_bw="1MBps"/></host>
    <host id="gpu0" speed="1kf"/>
    <router id="sw"/>
    <link id="pcie0" bandwidth="1MBps" latency="1us"/>
    <link id="up" bandwidth="2MBps" latency="2us"/>
    <route src="gpu0" dst="host"><link_ctn id="pcie0"/><link_ctn id="up"/></route>
  </zone>
</platform>
)";
    const PlatformXml x = read_platform_xml(test::write_platform_xml("floyd", text).string());
    REQUIRE(x.routes.size() == 1);
    CHECK(x.routes[0].write_bytes_per_s == 1e6);
    CHECK(x.routes[0].read_bytes_per_s == 1e6);
    CHECK(x.routes[0].write_latency_ms == Approx(0.003).epsilon(1e-12));
    CHECK(x.routes[0].read_latency_ms == Approx(0.003).epsilon(1e-12));
    // Through the router: SimGrid 3.32 finds no route (tried), so memsim asks for one.
    const std::string chain = replaced(text, R"(<route src="gpu0" dst="host"><link_ctn id="pcie0"/><link_ctn id="up"/></route>)",
                                       R"(<route src="gpu0" dst="sw"><link_ctn id="pcie0"/></route>)"
                                       R"(<route src="sw" dst="host"><link_ctn id="up"/></route>)");
    CHECK_THAT(error_message("chain", chain), Catch::Contains("element 'route src=\"gpu0\" dst=\"host\"': missing: no route from "
                                                              "gpu0 to host") &&
                                                  Catch::Contains("memsim does not chain routes through routers"));
    // SimGrid 3.32 aborts in a Dijkstra zone's route_to (tried): refused.
    CHECK_THAT(error_message("dijkstra", replaced(text, R"(routing="Floyd")", R"(routing="Dijkstra")")),
               Catch::Contains("element 'zone id=\"node\"': routing=\"Dijkstra\" is not supported (supported: Full, Floyd)"));
}

TEST_CASE("platform xml: a file that is not XML is refused with its line") {
    const std::string e = error_message("malformed", replaced(kTwoGpusOneUplinkXml, "</zone>", ""));
    CHECK_THAT(e, Catch::Contains("not valid XML (line"));
}

TEST_CASE("platform xml: a missing GPU is named") {
    const std::string e = error_message(
        "no_gpu1", replaced(kTwoGpusOneUplinkXml, R"(<host id="gpu1" speed="1kf"/>)", R"(<host id="gpu2" speed="1kf"/>)"));
    CHECK_THAT(e, Catch::Contains("element 'host id=\"gpu1\"': missing: the file has gpu2, so gpu0 .. gpu2 must all be there"));
    const std::string none = error_message(
        "no_gpus", replaced(replaced(kTwoGpusOneUplinkXml, R"(id="gpu0")", R"(id="g0")"), R"(id="gpu1")", R"(id="g1")"));
    CHECK_THAT(none, Catch::Contains("element 'host id=\"gpu0\"': missing: the GPUs are the hosts gpu0, gpu1"));
}

TEST_CASE("platform xml: a host without disk0 is refused") {
    const std::string e = error_message("no_disk", replaced(kTwoGpusOneUplinkXml, R"(id="disk0")", R"(id="nvme")"));
    CHECK_THAT(e, Catch::Contains("element 'host id=\"host\"': has no <disk id=\"disk0\">"));
    const std::string gap = error_message("disk_gap", replaced(kTwoGpusOneUplinkXml, R"(id="disk0")", R"(id="disk1")"));
    CHECK_THAT(gap, Catch::Contains("element 'disk id=\"disk0\"' in 'host id=\"host\"': missing"));
    const std::string host = error_message("no_host", replaced(kTwoGpusOneUplinkXml, R"(<host id="host")", R"(<host id="cpu")"));
    CHECK_THAT(host, Catch::Contains("element 'host id=\"host\"': missing"));
}

TEST_CASE("platform xml: a GPU with no route to the host is refused") {
    const std::string text = replaced(kTwoGpusOneUplinkXml,
                                      R"(<route src="gpu1" dst="host"><link_ctn id="pcie1" direction="UP"/><link_ctn id="switch0" direction="UP"/></route>)",
                                      "");
    const std::string e = error_message("no_route", text);
    CHECK_THAT(e, Catch::Contains("element 'route src=\"gpu1\" dst=\"host\"': missing: no route from gpu1 to host"));
    // Declared one way only: the way back is missing.
    const std::string one_way = error_message("one_way", replaced(kTwoGpusOneUplinkXml, R"(<route src="gpu1" dst="host">)",
                                                                  R"(<route src="gpu1" dst="host" symmetrical="NO">)"));
    CHECK_THAT(one_way, Catch::Contains("element 'route src=\"host\" dst=\"gpu1\"': missing: no route from host to gpu1"));
    // In a Floyd zone alike.
    const std::string floyd = error_message("floyd_no_route", replaced(text, R"(routing="Full")", R"(routing="Floyd")"));
    CHECK_THAT(floyd, Catch::Contains("element 'route src=\"gpu1\" dst=\"host\"': missing: no route from gpu1 to host"));
}

TEST_CASE("platform xml: what SimGrid would abort on or memsim cannot follow is refused by name") {
    CHECK_THAT(error_message("cluster", replaced(kTwoGpusOneUplinkXml, R"(routing="Full")", R"(routing="Cluster")")),
               Catch::Contains("element 'zone id=\"node\"': routing=\"Cluster\" is not supported (supported: Full, Floyd)"));
    CHECK_THAT(error_message("speed", replaced(kTwoGpusOneUplinkXml, R"(<host id="gpu1" speed="1kf"/>)",
                                               R"(<host id="gpu1" speed="312Tf"/>)")),
               Catch::Contains("element 'host id=\"gpu1\"': speed must be \"1kf\""));
    CHECK_THAT(error_message("units", replaced(kTwoGpusOneUplinkXml, R"(bandwidth="1MBps")", R"(bandwidth="1MB/s")")),
               Catch::Contains("element 'link id=\"pcie0\"': bandwidth=\"1MB/s\" is not a value SimGrid reads"));
    CHECK_THAT(error_message("zero", replaced(kTwoGpusOneUplinkXml, R"(bandwidth="1MBps")", R"(bandwidth="0Bps")")),
               Catch::Contains("element 'link id=\"pcie0\"': bandwidth=\"0Bps\" is out of range"));
    CHECK_THAT(error_message("latency", replaced(kTwoGpusOneUplinkXml, R"(latency="0s")", "")),
               Catch::Contains("element 'link id=\"pcie0\"': missing its latency=\"...\" attribute"));
    CHECK_THAT(
        error_message("no_link", replaced(kTwoGpusOneUplinkXml, R"(<link_ctn id="pcie1")", R"(<link_ctn id="pcie9")")),
        Catch::Contains("element 'link_ctn id=\"pcie9\"' in 'route src=\"gpu1\" dst=\"host\"': missing: no <link id=\"pcie9\">"));
    CHECK_THAT(error_message("direction", replaced(kTwoGpusOneUplinkXml, R"(<link_ctn id="pcie1" direction="UP"/>)",
                                                   R"(<link_ctn id="pcie1"/>)")),
               Catch::Contains("the link is SPLITDUPLEX: give direction=\"UP\" or \"DOWN\""));
    CHECK_THAT(error_message("twice",
                             replaced(kTwoGpusOneUplinkXml, "</zone>",
                                      R"(<route src="host" dst="gpu0"><link_ctn id="pcie0" direction="DOWN"/></route></zone>)")),
               Catch::Contains("element 'route src=\"host\" dst=\"gpu0\"': routes host to gpu0 again"));
    CHECK_THAT(
        error_message("config", replaced(kTwoGpusOneUplinkXml, R"(<platform version="4.1">)",
                                         R"(<platform version="4.1"><config><prop id="network/model" value="LV08"/></config>)")),
        Catch::Contains("element 'config': not supported: memsim configures SimGrid itself"));
    CHECK_THAT(error_message("nested", replaced(kTwoGpusOneUplinkXml, "</zone>", R"(<zone id="inner" routing="Full"/></zone>)")),
               Catch::Contains("element 'zone' in 'zone id=\"node\"': not supported"));
    CHECK_THAT(error_message("order", replaced(replaced(kTwoGpusOneUplinkXml, R"(<host id="gpu1" speed="1kf"/>)", ""), "</zone>",
                                               R"(<host id="gpu1" speed="1kf"/></zone>)")),
               Catch::Contains("element 'host id=\"gpu1\"': comes after a <route>: SimGrid 3.32 reads a zone's hosts, "
                               "routers and links first, then its routes"));
    CHECK_THAT(error_message("stranger", replaced(kTwoGpusOneUplinkXml, R"(<route src="gpu1" dst="host">)",
                                                  R"(<route src="gpu1" dst="cpu">)")),
               Catch::Contains("element 'route src=\"gpu1\" dst=\"cpu\"': 'cpu' is no host or router of zone 'node'"));
    CHECK_THAT(error_message("doctype", replaced(kTwoGpusOneUplinkXml,
                                                 R"(<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">)", "")),
               Catch::Contains("element 'platform': its document type is missing"));
    CHECK_THAT(error_message("version", replaced(kTwoGpusOneUplinkXml, R"(version="4.1")", R"(version="4")")),
               Catch::Contains("element 'platform': version=\"4\" is not 4.1"));
}

TEST_CASE("platform xml: platform.file fills the node, refuses the keys it replaces and checks platform.gpus") {
    const std::string file = test::write_platform_xml("scenario", kTwoGpusOneUplinkXml).string();
    const Scenario s = parse_scenario("workload: {synthetic: mlp}\nplatform: {file: " + file + ", host: {memory: 1MiB}}\n", "t.yaml");
    CHECK(s.platform.has_host_tier());
    CHECK_FALSE(s.platform.host_link);
    CHECK(s.platform.gpus == 2);
    CHECK(*s.platform.host_memory == 1048576);
    CHECK(s.platform.disk.read_bytes_per_s == 1e5);
    REQUIRE(s.platform.file_routes.size() == 2);
    CHECK(s.platform.file_routes[1].read_bytes_per_s == 1e6);
    CHECK_THAT(scenario_error("{file: " + file + ", gpus: 3}"),
               Catch::Contains("platform.gpus: 3 disagrees with platform.file " + file + ", which has 2 GPUs (gpu0 .. gpu1)"));
    CHECK_THAT(scenario_error("{file: " + file + ", host: {link: {bandwidth: 1GB/s}}}"),
               Catch::Contains("platform.host.link: cannot be set with platform.file"));
    CHECK_THAT(scenario_error("{file: " + file + ", disk: {bandwidth: 1GB/s}}"),
               Catch::Contains("platform.disk: cannot be set with platform.file"));
    CHECK_THAT(scenario_error("{file: no_such_node.xml}"), Catch::Contains("platform.file: 'no_such_node.xml' does not exist"));
}
