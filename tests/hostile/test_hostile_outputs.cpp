// Issue 18, items 1, 7 and 8: outputs are complete or absent, the default output folder
// stays under out/, and command-line mistakes exit 1 with memsim's own message.
#include <catch2/catch.hpp>

#include <filesystem>

#include <nlohmann/json.hpp>

#include "hostile_support.h"
#include "models/io/atomic_file.h"
#include "sim/scenario/scenario.h"

using namespace memsim;
using namespace memsim::test;
namespace fs = std::filesystem;

namespace {

// Files in `dir` whose name marks a leftover temporary.
int temporaries_in(const fs::path& dir) {
    int n = 0;
    for (const auto& e : fs::recursive_directory_iterator(dir))
        if (e.path().filename().string().find(".tmp") != std::string::npos) ++n;
    return n;
}

}  // namespace

TEST_CASE("hostile outputs: a file is replaced whole or not at all, and a failure names the file and the reason") {
    const fs::path dir = fresh_dir("atomic");
    const std::string path = (dir / "a.txt").string();
    write_file_atomically(path, "first\n");
    CHECK(read_file(path) == "first\n");
    write_file_atomically(path, "second\n");
    CHECK(read_file(path) == "second\n");
    // A folder that does not exist: the error says which file and why.
    CHECK_THROWS_WITH(write_file_atomically((dir / "missing" / "b.txt").string(), "x"),
                      Catch::Contains((dir / "missing" / "b.txt").string()) && Catch::Contains("No such file or directory"));
    CHECK(temporaries_in(dir) == 0);
}

TEST_CASE("hostile outputs: a run whose gantt page cannot be written exits 1 and leaves no summary") {
    const fs::path dir = fresh_dir("full_disk_run");
    // ulimit -f 16: any file past 16 KiB fails to write (EFBIG), as on a full disk; the
    // gantt page of the example is larger, its summary smaller.
    const Outcome o = run_memsim_with("trap '' XFSZ; ulimit -f 16;",
                                      "run scenarios/example.yaml --set output.gantt=true -q --out " + dir.string());
    CHECK(o.code == 1);
    CHECK_THAT(o.err, Catch::Contains((dir / "gantt.html").string()) && Catch::Contains("File too large"));
    CHECK_FALSE(fs::exists(dir / "summary.json"));  // written last: no 'ok' summary for a failed run
    CHECK_FALSE(fs::exists(dir / "gantt.html"));    // absent, not truncated
    CHECK(temporaries_in(dir) == 0);
}

TEST_CASE("hostile outputs: generate on a full disk exits 1 and leaves only complete profile files") {
    const fs::path dir = fresh_dir("full_disk_generate") / "mlp";
    // 4 KiB: the io_info file (about 8.6 KiB) cannot be written; it was left cut at 4096 bytes, exit 0.
    const Outcome o = run_memsim_with("trap '' XFSZ; ulimit -f 4;", "generate " + dir.string() + " --batch 8");
    CHECK(o.code == 1);
    CHECK_THAT(o.err, Catch::Contains("File too large"));
    int complete = 0;
    for (const auto& e : fs::directory_iterator(dir)) {
        INFO(e.path());
        CHECK_NOTHROW(nlohmann::json::parse(read_file(e.path())));  // every file there parses
        ++complete;
    }
    CHECK(temporaries_in(dir) == 0);
    CHECK_FALSE(fs::exists(dir / "mlp.io_info.json"));
    CHECK(complete < 4);
}

TEST_CASE("hostile outputs: the default output folder stays under out/ whatever the scenario name") {
    const char* yaml = "workload: {profile: examples/mlp, batch: 4}\n";
    const Scenario escaped = parse_scenario(std::string(yaml) + "name: ../../escaped\n", "t.yaml", {}, MEMSIM_SOURCE_DIR);
    CHECK(escaped.output.dir == "out/_._.._escaped");
    const Scenario dots = parse_scenario(std::string(yaml) + "name: '..'\n", "t.yaml", {}, MEMSIM_SOURCE_DIR);
    CHECK(dots.output.dir == "out/_.");
    const Scenario spaced = parse_scenario(std::string(yaml) + "name: 'a b/c'\n", "t.yaml", {}, MEMSIM_SOURCE_DIR);
    CHECK(spaced.output.dir == "out/a_b_c");
    const Scenario plain = parse_scenario(std::string(yaml) + "name: swap-modes_2.v1\n", "t.yaml", {}, MEMSIM_SOURCE_DIR);
    CHECK(plain.output.dir == "out/swap-modes_2.v1");
    for (const Scenario* s : {&escaped, &dots, &spaced}) {
        const fs::path p = fs::path(s->output.dir).lexically_normal();
        CHECK(p.begin()->string() == "out");
        CHECK(std::distance(p.begin(), p.end()) == 2);
    }
}

TEST_CASE("hostile outputs: command-line mistakes exit 1 with memsim's message, not CLI11's codes") {
    for (const std::string args : {"run", "plan --align abc --records x.json", "bogus", "run scenarios/example.yaml --nope",
                                   "run does/not/exist.yaml"}) {
        INFO(args);
        const Outcome o = run_memsim(args);
        CHECK(o.code == 1);
        CHECK_THAT(o.err, Catch::StartsWith("memsim: error: "));
    }
    CHECK(run_memsim("run --help").code == 0);
}
