// platform.file from the command line: a path relative to the scenario file, and a
// broken platform file is an error naming the file, the element and what is missing,
// exit 1 (never SimGrid's abort).
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "file_support.h"
#include "platform_xml_support.h"

namespace fs = std::filesystem;
using memsim::test::kTwoGpusOneUplinkXml;
using memsim::test::Outcome;
using memsim::test::replaced;

namespace {

// A scenario naming node.xml beside it, run from the source tree (another folder).
Outcome run_with(const std::string& name, const std::string& xml) {
    const fs::path dir = memsim::test::fresh_dir("platform_file_cli_" + name);
    std::ofstream(dir / "node.xml") << xml;
    std::ofstream(dir / "s.yaml") << "workload: {synthetic: mlp}\nplatform: {file: node.xml}\n"
                                     "policy: {swap: {mode: async, placement: host}}\n";
    return memsim::test::run_memsim("run " + (dir / "s.yaml").string() + " --quiet --out " + (dir / "out").string());
}

}  // namespace

TEST_CASE("platform file cli: a good file beside the scenario runs, exit 0") {
    const Outcome ok = run_with("good", kTwoGpusOneUplinkXml);
    CHECK_THAT(ok.err, !Catch::Contains("error"));
    CHECK(ok.code == 0);
}

TEST_CASE("platform file cli: a malformed file, a missing GPU, a missing disk, a missing route: exit 1 naming each") {
    const Outcome malformed = run_with("malformed", replaced(kTwoGpusOneUplinkXml, "</zone>", ""));
    CHECK(malformed.code == 1);
    CHECK_THAT(malformed.err, Catch::Contains("node.xml: not valid XML (line"));

    const Outcome no_gpu1 = run_with("no_gpu1", replaced(kTwoGpusOneUplinkXml, R"(<host id="gpu1" speed="1kf"/>)",
                                                         R"(<host id="gpu2" speed="1kf"/>)"));
    CHECK(no_gpu1.code == 1);
    CHECK_THAT(no_gpu1.err, Catch::Contains("node.xml: element 'host id=\"gpu1\"': missing"));

    const Outcome no_disk = run_with("no_disk", replaced(kTwoGpusOneUplinkXml, R"(<disk id="disk0" read_bw="100kBps" write_bw="100kBps"/>)", ""));
    CHECK(no_disk.code == 1);
    CHECK_THAT(no_disk.err, Catch::Contains("node.xml: element 'host id=\"host\"': has no <disk id=\"disk0\">"));

    const Outcome no_route = run_with("no_route", replaced(kTwoGpusOneUplinkXml, R"(<route src="gpu1" dst="host">)",
                                                           R"(<route src="gpu1" dst="gpu0">)"));
    CHECK(no_route.code == 1);
    CHECK_THAT(no_route.err, Catch::Contains("node.xml: element 'route src=\"gpu1\" dst=\"host\"': missing: no route from gpu1 to host"));

    // What only SimGrid's own parser checks (its DTD: an attribute it does not know) is
    // its ParseError, turned into an error naming the file, exit 1.
    const Outcome unknown = run_with("unknown_attribute", replaced(kTwoGpusOneUplinkXml, R"(<host id="gpu1" speed="1kf"/>)",
                                                                   R"(<host id="gpu1" speed="1kf" colour="red"/>)"));
    CHECK(unknown.code == 1);
    CHECK_THAT(unknown.err, Catch::Contains("node.xml: SimGrid cannot load it: ") && Catch::Contains("Bad attribute `colour'"));
}
