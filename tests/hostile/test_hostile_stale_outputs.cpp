// Issue 41, class 6: an output folder reused by a later run, sweep or merge keeps nothing
// an earlier memsim left there (every file of output_file_table(), in sim/report/
// output_folder.h), and nothing memsim did not write is removed. Class 8's emitted jobs
// (every path of a point's scenario absolute) are at the end.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <set>
#include <sstream>
#include <string>

#include <fmt/format.h>

#include "hostile_support.h"
#include "platform_xml_support.h"
#include "sim/report/output_folder.h"
#include "sim/scenario/schema.h"

using namespace memsim;
using namespace memsim::test;
namespace fs = std::filesystem;

namespace {

bool has(const fs::path& path) { return fs::exists(fs::symlink_status(path)); }

// Every entry under `dir`, relative, sorted ("points/0001/summary.json", "points/0001", ...).
std::set<std::string> tree(const fs::path& dir) {
    std::set<std::string> names;
    for (const auto& e : fs::recursive_directory_iterator(dir)) names.insert(fs::relative(e.path(), dir).string());
    return names;
}

bool in_table(const std::string& name) {
    return std::any_of(output_file_table().begin(), output_file_table().end(),
                       [&](const OutputFileRow& row) { return matches_output_name(name, row.name); });
}

// A run with every output: summary.json, events.csv, gantt.html, trace.json, memory_snapshot.pickle.
const char* kEveryRunOutput = "--set policy.allocator=torch_caching --set output.torch_snapshot=true "
                              "--set output.events=true --set output.gantt=true --set output.trace=true";

}  // namespace

TEST_CASE("hostile folders: memory_snapshot.pickle survives neither a later run without snapshots nor a later failing run (issue 41 example)") {
    const fs::path out = fresh_dir("stale_snapshot") / "out";
    const std::string run = "run scenarios/example.yaml -q --out " + out.string() + " ";
    REQUIRE(run_memsim(run + kEveryRunOutput).code == 0);
    REQUIRE(has(out / "memory_snapshot.pickle"));
    // A complete run without snapshots: the folder holds that run's files only.
    REQUIRE(run_memsim(run).code == 0);
    CHECK(tree(out) == std::set<std::string>{"summary.json"});
    // A run that fails while writing (16 KiB file size limit: gantt.html cannot be written).
    REQUIRE(run_memsim(run + kEveryRunOutput).code == 0);
    const Outcome o = run_memsim_with("trap '' XFSZ; ulimit -f 16;", run + "--set output.events=true --set output.gantt=true");
    CHECK(o.code == 1);
    CHECK(tree(out) == std::set<std::string>{"INCOMPLETE", "events.csv"});
}

TEST_CASE("hostile folders: a run into a sweep folder removes the sweep's files and points and keeps the user's (issue 41 example)") {
    const fs::path dir = fresh_dir("run_into_sweep");
    const fs::path out = dir / "out";
    const std::string scenario = write_text(dir / "s.yaml", "name: s\nworkload: {synthetic: uniform_linear, n: 4}\n"
                                                            "sweep: {platform.gpu.speed_scale: [1, 2, 3]}\n");
    REQUIRE(run_memsim("sweep " + scenario + " -j 1 --quiet --out " + out.string()).code == 0);
    REQUIRE(has(out / "sweep.json"));
    REQUIRE(has(out / "results.csv"));
    REQUIRE(has(out / "plot_time_ms_vs_platform.gpu.speed_scale.svg"));
    REQUIRE(has(out / "points/0003/summary.json"));
    write_text(out / "notes.txt", "mine\n");
    write_text(out / "points/0002/mine.txt", "mine\n");
    write_text(out / "plots.png", "mine\n");  // not a name memsim writes
    REQUIRE(run_memsim("run " + scenario + " -q --out " + out.string()).code == 0);
    CHECK(tree(out) == std::set<std::string>{"notes.txt", "plots.png", "points", "points/0002", "points/0002/mine.txt",
                                             "summary.json"});
}

TEST_CASE("hostile folders: a smaller sweep into a larger one's folder keeps none of its extra points (issue 41 example)") {
    const fs::path dir = fresh_dir("smaller_sweep");
    const fs::path out = dir / "out";
    const std::string large = write_text(dir / "large.yaml", "name: l\nworkload: {synthetic: uniform_linear, n: 4}\n"
                                                             "sweep: {platform.gpu.speed_scale: [1, 2, 3]}\n");
    const std::string small = write_text(dir / "small.yaml", "name: s\nworkload: {synthetic: uniform_linear, n: 4}\n"
                                                             "sweep: {platform.gpu.speed_scale: [5]}\n");
    REQUIRE(run_memsim("sweep " + large + " -j 1 --quiet --out " + out.string() + " --set output.events=true").code == 0);
    REQUIRE(has(out / "points/0003/events.csv"));
    REQUIRE(run_memsim("sweep " + small + " -j 1 --quiet --out " + out.string()).code == 0);
    std::set<std::string> points;
    for (const std::string& name : tree(out))
        if (name.rfind("points/", 0) == 0) points.insert(name);
    CHECK(points == std::set<std::string>{"points/0001", "points/0001/log.txt", "points/0001/summary.json"});
    // merge reads the one point, as the sweep wrote it.
    const std::string results = read_file(out / "results.csv");
    CHECK(std::count(results.begin(), results.end(), '\n') == 2);  // the header and point 0001
    const Outcome m = run_memsim("merge " + out.string() + " --quiet");
    CHECK(m.code == 0);
    CHECK(read_file(out / "results.csv") == results);
}

TEST_CASE("hostile folders: a sweep into a run folder removes the run's files and every file either writes is in the table") {
    const fs::path dir = fresh_dir("sweep_into_run");
    const fs::path out = dir / "out";
    REQUIRE(run_memsim(std::string("run scenarios/example.yaml -q --out ") + out.string() + " " + kEveryRunOutput).code == 0);
    for (const std::string& name : tree(out)) CHECK(in_table(name));
    const std::string scenario = write_text(dir / "s.yaml", "name: s\nworkload: {synthetic: uniform_linear, n: 4}\n"
                                                            "sweep: {platform.gpu.speed_scale: [1, 2]}\n");
    REQUIRE(run_memsim("sweep " + scenario + " -j 1 --quiet --out " + out.string() +
                       " --set output.events=true --set output.gantt=true --set output.trace=true")
                .code == 0);
    for (const char* gone : {"summary.json", "events.csv", "gantt.html", "trace.json", "memory_snapshot.pickle"})
        CHECK_FALSE(has(out / gone));
    for (const std::string& name : tree(out)) {
        INFO(name);
        const fs::path path(name);
        const bool point_folder = path.parent_path() == "points" && !path.has_extension();
        CHECK((in_table(path.filename().string()) || point_folder));
    }
    // The docs' table names every row (docs/outputs.md, "The files memsim writes").
    const std::string doc = read_file(fs::path(MEMSIM_SOURCE_DIR) / "docs/outputs.md");
    for (const OutputFileRow& row : output_file_table()) {
        INFO(row.name);
        CHECK(doc.find(fmt::format("| `{}` |", row.name)) != std::string::npos);
    }
}

TEST_CASE("hostile folders: a sweep refuses a folder whose point another memsim is writing and names the point") {
    const fs::path dir = fresh_dir("point_busy");
    const fs::path out = dir / "out";
    const std::string scenario = write_text(dir / "s.yaml", "name: s\nworkload: {synthetic: uniform_linear, n: 4}\n"
                                                            "sweep: {platform.gpu.speed_scale: [1, 2]}\n");
    REQUIRE(run_memsim("sweep " + scenario + " -j 1 --quiet --out " + out.string()).code == 0);
    {
        // This process writes point 0002, as a `memsim run --out out/points/0002` would.
        OutputFolder point((out / "points/0002").string(), "memsim run", EarlierOutputs::all);
        const Outcome o = run_memsim("sweep " + scenario + " -j 1 --quiet --out " + out.string());
        CHECK(o.code == 1);
        CHECK_THAT(o.err, Catch::Contains(fmt::format("{}: another memsim (pid {}) is writing this point's folder",
                                                      (out / "points/0002").string(), ::getpid())));
        point.complete();
    }
    CHECK(run_memsim("sweep " + scenario + " -j 1 --quiet --out " + out.string()).code == 0);
}

TEST_CASE("hostile exit: the path keys of a scenario are the schema's and each is made absolute in an emitted job") {
    CHECK(path_keys() == std::vector<std::string>{"workload.profile", "workload.dtr_log", "workload.torch_snapshot",
                                                   "platform.file"});
}

TEST_CASE("hostile exit: an emitted job runs from another working directory with its platform file beside the scenario (issue 41 example)") {
    const fs::path dir = fresh_dir("emit_paths");
    fs::copy(fs::path(MEMSIM_SOURCE_DIR) / "examples/mlp", dir / "mlp");
    write_text(dir / "node.xml", kTwoGpusOneUplinkXml);
    write_text(dir / "s.yaml", "name: e\nworkload: {profile: mlp, batch: 4}\nplatform: {file: node.xml}\n"
                               "policy: {swap: {mode: async, placement: host}}\n"
                               "sweep: {platform.gpu.speed_scale: [1, 2]}\n");
    // Emitted from the scenario's folder, the relative paths resolve there.
    REQUIRE(run_memsim_in(dir, "sweep s.yaml --emit-jobs out").code == 0);
    const std::string point = read_file(dir / "out/points/0001/scenario.yaml");
    CHECK_THAT(point, Catch::Contains("file: " + (dir / "node.xml").string()));
    CHECK_THAT(point, Catch::Contains("profile: " + (dir / "mlp").string()));
    // Each job, run from / (neither the scenario's folder nor the source tree).
    std::istringstream jobs(read_file(dir / "out/jobs.txt"));
    int ran = 0;
    for (std::string job; std::getline(jobs, job); ++ran) {
        INFO(job);
        CHECK(std::system(("cd / && " + job).c_str()) == 0);
    }
    CHECK(ran == 2);
    const Outcome m = run_memsim("merge " + (dir / "out").string() + " --quiet");
    CHECK(m.code == 0);
    CHECK_THAT(m.out, Catch::StartsWith("2 points: 2 ok, 0 failed"));
}
