// platform.file from the command line: a path relative to the scenario file, and a
// broken platform file is an error naming the file, the element and what is missing,
// exit 1 (never SimGrid's abort).
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include <sys/stat.h>

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

    // An attribute memsim does not model (SimGrid's DTD would not know this one either)
    // is refused by memsim's allow-list, before SimGrid sees the file.
    const Outcome unknown = run_with("unknown_attribute", replaced(kTwoGpusOneUplinkXml, R"(<host id="gpu1" speed="1kf"/>)",
                                                                   R"(<host id="gpu1" speed="1kf" colour="red"/>)"));
    CHECK(unknown.code == 1);
    CHECK_THAT(unknown.err, Catch::Contains("node.xml: element 'host id=\"gpu1\"' in 'zone id=\"node\"': attribute "
                                            "colour=\"red\" is not supported"));
}

TEST_CASE("hostile platform: a host's state file naming a FIFO is refused by name, never opened: exit 1") {
    // Passed on, SimGrid would open it relative to the platform file and wait for a writer
    // forever (or, with content, turn the host off at t = 0 and abort).
    const fs::path dir = memsim::test::fresh_dir("platform_file_cli_fifo");
    REQUIRE(mkfifo((dir / "off").c_str(), 0600) == 0);
    std::ofstream(dir / "node.xml") << replaced(kTwoGpusOneUplinkXml, R"(<host id="gpu1" speed="1kf"/>)",
                                                R"(<host id="gpu1" speed="1kf" state_file="off"/>)");
    std::ofstream(dir / "s.yaml") << "workload: {synthetic: mlp}\nplatform: {file: node.xml}\n";
    const Outcome off = memsim::test::run_memsim("run " + (dir / "s.yaml").string() + " --quiet --out " + (dir / "out").string());
    CHECK(off.code == 1);
    CHECK_THAT(off.err, Catch::Contains("node.xml: element 'host id=\"gpu1\"' in 'zone id=\"node\"': attribute state_file=\"off\" "
                                        "is not supported: memsim does not model it (a <host> may have: id, speed)"));
}

TEST_CASE("hostile platform: a sweep whose file list holds a file nested 100000 deep stops with an error naming it, no crash") {
    // It overflowed the XML parser's stack (SIGSEGV) while the sweep checked its points.
    // Now the check refuses it like any bad value of a sweep list (plan_sweep checks every
    // point before any runs): exit 1, naming the file and the line.
    const fs::path dir = memsim::test::fresh_dir("platform_file_cli_deep_sweep");
    std::ofstream(dir / "node.xml") << kTwoGpusOneUplinkXml;
    std::string deep;
    for (int i = 0; i < 100000; ++i) deep += "<a>";
    std::ofstream(dir / "deep.xml") << replaced(kTwoGpusOneUplinkXml, "</zone>", deep + "</zone>");
    std::ofstream(dir / "s.yaml") << "workload: {synthetic: mlp}\nplatform: {file: node.xml}\n"
                                     "policy: {swap: {mode: async, placement: host}}\n"
                                     "sweep: {platform.file: [node.xml, deep.xml]}\n";
    const Outcome sweep = memsim::test::run_memsim("sweep " + (dir / "s.yaml").string() + " --jobs 1 --out " + (dir / "out").string());
    CHECK(sweep.code == 1);
    CHECK_THAT(sweep.err, Catch::Contains("memsim: error: " + (dir / "deep.xml").string() +
                                          ": line 15: element 'a' is nested more than 32 elements deep"));
    CHECK_FALSE(fs::exists(dir / "out" / "results.csv"));
}

TEST_CASE("hostile platform: a platform file whose name ends in .so runs as XML (SimGrid would dlopen the path and abort)") {
    const fs::path dir = memsim::test::fresh_dir("platform_file_cli_so");
    std::ofstream(dir / "node.so") << kTwoGpusOneUplinkXml;
    std::ofstream(dir / "s.yaml") << "workload: {synthetic: mlp}\nplatform: {file: node.so}\n"
                                     "policy: {swap: {mode: async, placement: host}}\n";
    const Outcome so = memsim::test::run_memsim("run " + (dir / "s.yaml").string() + " --quiet --out " + (dir / "out").string());
    INFO(so.err);
    CHECK(so.code == 0);
    CHECK(fs::exists(dir / "out" / "summary.json"));
}
