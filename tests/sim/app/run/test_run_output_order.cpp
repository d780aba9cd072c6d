// A run writes what its scenario's output: section asks for, in the outputs table's order
// (sim/scenario/output_table.h), and summary.json, written by the report layer, last.
#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "file_support.h"
#include "sim/app/run/run_pipeline.h"
#include "sim/scenario/scenario.h"

using namespace memsim;
namespace fs = std::filesystem;

namespace {

// Modification time in nanoseconds.
long long mtime_ns(const fs::path& path) {
    struct stat info {};
    REQUIRE(::stat(path.c_str(), &info) == 0);
    return info.st_mtim.tv_sec * 1000000000LL + info.st_mtim.tv_nsec;
}

}  // namespace

TEST_CASE("outputs table: a run writes every output asked for in the table's order, summary.json last") {
    const fs::path dir = test::fresh_dir("run_output_order");
    const Scenario s = parse_scenario("name: t\nworkload: {synthetic: uniform_linear, n: 4}\npolicy: {allocator: torch_caching}\n"
                                      "output: {torch_snapshot: true, trace: true, events: true, gantt: true}\n",
                                      "t.yaml");
    const ScenarioRun run = run_scenario(s, dir.string());
    REQUIRE(run.result.summary.status == "ok");
    const std::vector<std::string> files = {"events.csv", "gantt.html", "trace.json", "memory_snapshot.pickle"};
    std::vector<std::string> expected;
    for (const std::string& file : files) expected.push_back((dir / file).string());
    CHECK(run.outputs == expected);
    for (const std::string& file : files) CHECK(mtime_ns(dir / file) <= mtime_ns(dir / "summary.json"));
    const nlohmann::json summary = nlohmann::json::parse(test::read_file(dir / "summary.json"));
    CHECK(summary.at("scenario_resolved").at("output").at("dir") == dir.string());
    CHECK(summary.at("scenario_resolved").at("output").at("torch_snapshot") == true);
    CHECK_FALSE(fs::exists(dir / "INCOMPLETE"));
}
