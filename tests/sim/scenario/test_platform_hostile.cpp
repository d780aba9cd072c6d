// Hostile platform files (issue 41, classes 2 and 10): what memsim does not model is
// refused by name before SimGrid sees the file, nesting is limited before the parse,
// names are printable UTF-8, a document type with an internal subset gets memsim's own
// message, and SimGrid is given memsim's copy of the checked tree, never the path.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include "sim/scenario/platform_xml.h"
#include "sim/scenario/platform_xml_text.h"
#include "models/workload/input_error.h"
#include "platform_xml_support.h"

using namespace memsim;
using test::kTwoGpusOneUplinkXml;
using test::replaced;

namespace {

const std::string kGpu1 = R"(<host id="gpu1" speed="1kf"/>)";

std::string error_reading(const std::string& name, const std::string& text) {
    const std::string file = test::write_platform_xml(name, text).string();
    try {
        (void)read_platform_xml(file);
    } catch (const InputError& e) {
        CHECK_THAT(e.what(), Catch::StartsWith(file + ": "));
        return std::string(e.what()).substr(file.size() + 2);
    }
    FAIL("no InputError thrown");
    return {};
}

std::string nested(int depth, const std::string& inner = "") {
    std::string text;
    for (int i = 0; i < depth; ++i) text += "<a>";
    text += inner;
    for (int i = 0; i < depth; ++i) text += "</a>";
    return text;
}

}  // namespace

TEST_CASE("hostile platform: attributes memsim does not model are refused by name, file, element and value") {
    // Each would reach SimGrid: a profile or state file opened relative to the platform
    // file (a FIFO blocks, content aborts, a speed profile bypasses speed="1kf", a host off
    // at t = 0 aborts), core="0" aborts, coordinates and gateways change nothing memsim reads.
    const std::string in_zone = "' in 'zone id=\"node\"': ";
    CHECK(error_reading("speed_file", replaced(kTwoGpusOneUplinkXml, kGpu1, R"(<host id="gpu1" speed="1kf" speed_file="fast.txt"/>)")) ==
          "element 'host id=\"gpu1\"" + in_zone + "attribute speed_file=\"fast.txt\" is not supported: memsim does not model "
          "it (a <host> may have: id, speed)");
    CHECK(error_reading("state_file", replaced(kTwoGpusOneUplinkXml, kGpu1, R"(<host id="gpu1" speed="1kf" state_file="off.txt"/>)")) ==
          "element 'host id=\"gpu1\"" + in_zone + "attribute state_file=\"off.txt\" is not supported: memsim does not model "
          "it (a <host> may have: id, speed)");
    CHECK(error_reading("core", replaced(kTwoGpusOneUplinkXml, kGpu1, R"(<host id="gpu1" speed="1kf" core="0"/>)")) ==
          "element 'host id=\"gpu1\"" + in_zone + "attribute core=\"0\" is not supported: memsim does not model it (a <host> "
          "may have: id, speed)");
    for (const char* attr : {"availability_file", "profile", "pstate", "coordinates"})
        CHECK_THAT(error_reading(attr, replaced(kTwoGpusOneUplinkXml, kGpu1, fmt::format(R"(<host id="gpu1" speed="1kf" {}="1"/>)", attr))),
                   Catch::StartsWith("element 'host id=\"gpu1\"" + in_zone + "attribute " + attr + "=\"1\" is not supported"));
    CHECK(error_reading("bandwidth_file", replaced(kTwoGpusOneUplinkXml, R"(<link id="pcie1" )", R"(<link id="pcie1" bandwidth_file="bw.txt" )")) ==
          "element 'link id=\"pcie1\"" + in_zone + "attribute bandwidth_file=\"bw.txt\" is not supported: memsim does not "
          "model it (a <link> may have: id, bandwidth, latency, sharing_policy)");
    CHECK(error_reading("gateway", replaced(kTwoGpusOneUplinkXml, R"(<route src="gpu1" dst="host">)", R"(<route src="gpu1" dst="host" gw_src="gpu0">)")) ==
          "element 'route src=\"gpu1\" dst=\"host\"" + in_zone + "attribute gw_src=\"gpu0\" is not supported: memsim does not "
          "model it (a <route> may have: src, dst, symmetrical)");
    CHECK(error_reading("platform_attr", replaced(kTwoGpusOneUplinkXml, R"(<platform version="4.1">)", R"(<platform version="4.1" x="y">)")) ==
          "element 'platform': attribute x=\"y\" is not supported: memsim does not model it (a <platform> may have: version)");
    // Each attribute once: Boost keeps both, SimGrid would take one of them.
    CHECK(error_reading("twice", replaced(kTwoGpusOneUplinkXml, kGpu1, R"(<host id="gpu1" speed="1kf" speed="2kf"/>)")) ==
          "element 'host id=\"gpu1\"" + in_zone + "attribute speed is given twice");
}

TEST_CASE("hostile platform: elements memsim does not model are refused by name") {
    CHECK(error_reading("trace", replaced(kTwoGpusOneUplinkXml, "</zone>", R"(<trace id="t" periodicity="1">0 1</trace></zone>)")) ==
          "element 'trace' in 'zone id=\"node\"': not supported: memsim does not model it (a <zone> may hold: host, router, "
          "link, route; docs/tiers.md)");
    CHECK(error_reading("trace_connect", replaced(kTwoGpusOneUplinkXml, "</zone>", R"(</zone><trace_connect kind="SPEED" trace="t" element="gpu0"/>)")) ==
          "element 'trace_connect' in 'platform': not supported: memsim does not model it (a <platform> may hold: zone; "
          "docs/tiers.md)");
    CHECK(error_reading("host_prop", replaced(kTwoGpusOneUplinkXml, kGpu1, R"(<host id="gpu1" speed="1kf"><prop id="watt_off" value="10"/></host>)")) ==
          "element 'prop' in 'host id=\"gpu1\"' in 'zone id=\"node\"': not supported: memsim does not model it (a <host> may "
          "hold: disk; docs/tiers.md)");
    CHECK(error_reading("disk_prop", replaced(kTwoGpusOneUplinkXml, R"(write_bw="100kBps"/>)", R"(write_bw="100kBps"><prop id="size" value="1GB"/></disk>)")) ==
          "element 'prop' in 'disk id=\"disk0\"': <prop id=\"size\"> is not supported: a disk's props are "
          "read_latency and write_latency (SimGrid's props mean nothing to memsim)");
    CHECK(error_reading("router_child", replaced(kTwoGpusOneUplinkXml, kGpu1, kGpu1 + R"(<router id="r"><prop id="a" value="b"/></router>)")) ==
          "element 'prop' in 'router id=\"r\"' in 'zone id=\"node\"': not supported: memsim does not model it (a <router> may "
          "hold: none; docs/tiers.md)");
    CHECK(error_reading("text", replaced(kTwoGpusOneUplinkXml, kGpu1, R"(<host id="gpu1" speed="1kf">fast</host>)")) ==
          "element 'host id=\"gpu1\"' in 'zone id=\"node\"': holds the text 'fast': a platform element holds elements only");
    CHECK(error_reading("two_roots", kTwoGpusOneUplinkXml + std::string(R"(<platform version="4.1"/>)")) ==
          "element 'platform': given more than once: a file holds one <platform>");
}

TEST_CASE("hostile platform: values SimGrid would abort on are refused: power states, directions, routes to self, link names") {
    CHECK(error_reading("pstates", replaced(kTwoGpusOneUplinkXml, R"(<host id="host" speed="1kf">)", R"(<host id="host" speed="1kf,2kf">)")) ==
          "element 'host id=\"host\"': speed=\"1kf,2kf\" lists power states, which memsim does not model: give one speed");
    CHECK(error_reading("zero_speed", replaced(kTwoGpusOneUplinkXml, R"(<host id="host" speed="1kf">)", R"(<host id="host" speed="0f">)")) ==
          "element 'host id=\"host\"': speed=\"0f\" must be a positive speed");
    CHECK(error_reading("sideways", replaced(kTwoGpusOneUplinkXml, R"(<link_ctn id="pcie1" direction="UP"/>)", R"(<link_ctn id="pcie1" direction="SIDEWAYS"/>)")) ==
          "element 'link_ctn id=\"pcie1\"' in 'route src=\"gpu1\" dst=\"host\"': direction=\"SIDEWAYS\" is none of UP, DOWN, NONE");
    // SimGrid 3.32's Floyd zone asserts on a symmetrical route from a point to itself.
    CHECK(error_reading("loop", replaced(kTwoGpusOneUplinkXml, "</zone>", R"(<route src="gpu0" dst="gpu0"><link_ctn id="pcie0" direction="UP"/></route></zone>)")) ==
          "element 'route src=\"gpu0\" dst=\"gpu0\"': routes a host or router to itself: memsim's routes join a GPU and the host");
    // SimGrid aborts (xbt_assert) on a second link of a name: a split-duplex link X is X_UP and X_DOWN.
    CHECK(error_reading("link_names", replaced(kTwoGpusOneUplinkXml, R"(<link id="pcie1" )", R"(<link id="pcie0_UP" bandwidth="1MBps" latency="0s"/><link id="pcie1" )")) ==
          "element 'link id=\"pcie0_UP\"': SimGrid would name a link 'pcie0_UP' twice (a split-duplex link X is the links X_UP "
          "and X_DOWN; __loopback__ is SimGrid's): rename one");
    CHECK_THAT(error_reading("loopback", replaced(kTwoGpusOneUplinkXml, R"(<link id="pcie1" )", R"(<link id="__loopback__" bandwidth="1MBps" latency="0s"/><link id="pcie1" )")),
               Catch::Contains("SimGrid would name a link '__loopback__' twice"));
    // SimGrid's DTD: hosts, routers and links, then routes (its parser stops otherwise).
    CHECK(error_reading("router_after_route", replaced(kTwoGpusOneUplinkXml, "</zone>", R"(<router id="r"/></zone>)")) ==
          "element 'router id=\"r\"': comes after a <route>: SimGrid 3.32 reads a zone's hosts, routers and links first, "
          "then its routes");
    CHECK(error_reading("zone_name", replaced(kTwoGpusOneUplinkXml, kGpu1, kGpu1 + R"(<router id="node"/>)")) ==
          "element 'router id=\"node\"': has the zone's name: SimGrid names hosts, routers and zones alike");
    CHECK(error_reading("prop_twice", replaced(kTwoGpusOneUplinkXml, R"(write_bw="100kBps"/>)",
                                               R"(write_bw="100kBps"><prop id="read_latency" value="1ms"/><prop id="read_latency" value="2ms"/></disk>)")) ==
          "element 'disk id=\"disk0\"' in 'host id=\"host\"': <prop id=\"read_latency\"> is given twice");
}

TEST_CASE("hostile platform: SimGrid is given memsim's copy of the checked file, not its path") {
    const std::string text = R"(<?xml version="1.0"?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<!-- a comment memsim drops -->
<platform version="4.1"><zone id="n&#111;de" routing="Full">
  <host id="host" speed="1kf"><disk id="disk0" read_bw="1kBps" write_bw="1kBps"><prop id="read_latency" value="1ms"/></disk></host>
  <host id="gpu0" speed="1kf"/><link id="l" bandwidth="1MBps" latency="0s"/>
  <route src="gpu0" dst="host"><link_ctn id="l"/></route></zone></platform>
)";
    const PlatformXml xml = read_platform_xml(test::write_platform_xml("copy", text).string());
    CHECK(xml.simgrid_text == R"(<?xml version="1.0"?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <zone id="node" routing="Full">
    <host id="host" speed="1kf">
      <disk id="disk0" read_bw="1kBps" write_bw="1kBps">
        <prop id="read_latency" value="1ms"/>
      </disk>
    </host>
    <host id="gpu0" speed="1kf"/>
    <link id="l" bandwidth="1MBps" latency="0s"/>
    <route src="gpu0" dst="host">
      <link_ctn id="l"/>
    </route>
  </zone>
</platform>
)");
}

TEST_CASE("hostile platform: elements nested past the limit are refused before the parse, at any depth") {
    // 100000 levels would overflow the parser's stack (it recurses once per level).
    const std::string deep = replaced(kTwoGpusOneUplinkXml, "</zone>", nested(100000) + "</zone>");
    CHECK(error_reading("deep", deep) ==
          "line 15: element 'a' is nested more than 32 elements deep (memsim's limit for a platform file, docs/limits.md; a node is 5 deep)");
    // The limit exactly: platform and zone are 2 levels, 30 more pass the scan and are refused by name.
    CHECK_THAT(error_reading("at_limit", replaced(kTwoGpusOneUplinkXml, "</zone>", nested(30) + "</zone>")),
               Catch::StartsWith("element 'a' in 'zone id=\"node\"': not supported"));
    CHECK_THAT(error_reading("past_limit", replaced(kTwoGpusOneUplinkXml, "</zone>", nested(31) + "</zone>")),
               Catch::StartsWith("line 15: element 'a' is nested more than 32 elements deep"));
    // A quote in a tag's name opens no value (rapidxml reads <q"> as an element named q"),
    // so the levels after it are counted.
    CHECK_THAT(error_reading("quote_in_name", replaced(kTwoGpusOneUplinkXml, "</zone>", "<q\">" + nested(40) + "<q\"></zone>")),
               Catch::StartsWith("line 15: element 'a' is nested more than 32 elements deep"));
    // Tags in comments, CDATA and attribute values, and empty elements, are no levels.
    const std::string hidden = replaced(kTwoGpusOneUplinkXml, "</zone>", "<!--" + nested(1000) + "--></zone>");
    CHECK_NOTHROW(read_platform_xml(test::write_platform_xml("hidden", hidden).string()));
    CHECK_THAT(error_reading("cdata", replaced(kTwoGpusOneUplinkXml, kGpu1, "<host id=\"gpu1\" speed=\"1kf\"><![CDATA[" + nested(1000) + "]]></host>")),
               Catch::Contains("holds the text '<a><a>"));
    CHECK_THAT(error_reading("quoted", replaced(kTwoGpusOneUplinkXml, kGpu1, "<host id=\"gpu1\" speed=\"1kf\" x='" + nested(1000) + "'/>")),
               Catch::Contains("attribute x=\"<a><a>"));
    // Elements in all, counted by the same scan; hosts and routers in the zone (3 hosts + 253 routers: 256).
    std::string many;
    for (int i = 0; i < 10000; ++i) many += "<link_ctn id=\"pcie1\" direction=\"UP\"/>";
    CHECK(error_reading("elements", replaced(kTwoGpusOneUplinkXml, R"(<link_ctn id="pcie1" direction="UP"/>)", many)) ==
          "line 14: more than 10000 elements (memsim's limit for a platform file, docs/limits.md; a node of 64 GPUs is a few hundred)");
    std::string routers;
    for (int i = 0; i < 253; ++i) routers += fmt::format("<router id=\"r{}\"/>", i);
    CHECK_NOTHROW(read_platform_xml(test::write_platform_xml("routers", replaced(kTwoGpusOneUplinkXml, kGpu1, kGpu1 + routers)).string()));
    CHECK(error_reading("netpoints", replaced(kTwoGpusOneUplinkXml, kGpu1, kGpu1 + routers + "<router id=\"last\"/>")) ==
          "element 'router id=\"last\"': more than 256 hosts and routers in the zone (memsim's limit, docs/limits.md: "
          "SimGrid's zone keeps a route table of N x N)");
    CHECK(error_reading("nul", replaced(kTwoGpusOneUplinkXml, kGpu1, std::string("<!--\0-->", 8))) == "line 9: a NUL byte: a platform file is text");
}

TEST_CASE("hostile platform: a name that is not printable UTF-8 is refused at parse time and shown escaped") {
    CHECK(error_reading("utf8", replaced(kTwoGpusOneUplinkXml, R"(<link id="pcie1" )", "<link id=\"pcie\xff" "1\" ")) ==
          "element 'link id=\"pcie\\xff1\"' in 'zone id=\"node\"': id=\"pcie\\xff1\" is not valid UTF-8 text");
    CHECK(error_reading("control", replaced(kTwoGpusOneUplinkXml, R"(<link id="pcie1" )", "<link id=\"pcie\x01" "1\" ")) ==
          "element 'link id=\"pcie\\x011\"' in 'zone id=\"node\"': id=\"pcie\\x011\" holds a control character (names and values "
          "are printable text)");
    CHECK(error_reading("amp", replaced(kTwoGpusOneUplinkXml, R"(<link id="pcie1" )", R"(<link id="a&amp;b" )")) ==
          "element 'link id=\"a&b\"' in 'zone id=\"node\"': id=\"a&b\" holds <, & or \" (memsim passes values on to SimGrid as plain text)");
    // A long value is cut in the message (120 characters then "...").
    const std::string e = error_reading("long", replaced(kTwoGpusOneUplinkXml, kGpu1, "<host id=\"gpu1\" speed=\"1kf\" x=\"" + std::string(100000, 'v') + "\"/>"));
    CHECK(e == "element 'host id=\"gpu1\"' in 'zone id=\"node\"': attribute x=\"" + std::string(120, 'v') +
                   "...\" is not supported: memsim does not model it (a <host> may have: id, speed)");
    CHECK(platform_xml::shown("ok \xc3\xa9 \xc2\x85 \x7f") == "ok \xc3\xa9 \\xc2\\x85 \\x7f");
}

TEST_CASE("hostile platform: a document type with an internal subset, or none, gets memsim's message") {
    const std::string doctype = R"(<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">)";
    CHECK(error_reading("subset", replaced(kTwoGpusOneUplinkXml, doctype, R"(<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd" [<!ENTITY x "y">]>)")) ==
          "element '!DOCTYPE': an internal subset ([...]: entity or element declarations) is not supported: SimGrid 3.32 reads "
          "none; write " + doctype);
    CHECK(error_reading("public", replaced(kTwoGpusOneUplinkXml, doctype, R"(<!DOCTYPE platform PUBLIC "-//x" "y.dtd">)")) ==
          "element '!DOCTYPE': '<!DOCTYPE platform PUBLIC \"-//x\" \"y.dtd\">' is not the document type SimGrid reads: write " + doctype);
    // A document type inside a comment is none.
    CHECK(error_reading("commented", replaced(kTwoGpusOneUplinkXml, doctype, "<!-- " + doctype + " -->")) ==
          "element 'platform': its document type is missing: SimGrid 3.32 reads a platform only after " + doctype);
}
