// Issue 18, item 6 on sweeps: the cartesian product is counted before it is built, and
// the merge reader turns any malformed point summary into an error row naming the file.
#include <catch2/catch.hpp>

#include <filesystem>

#include "hostile_support.h"
#include "models/workload/input_error.h"
#include "sim/sweep/point_results.h"
#include "sim/sweep/sweep_plan.h"

using namespace memsim;
using namespace memsim::test;
namespace fs = std::filesystem;

TEST_CASE("hostile sweeps: a product past the point limit is refused before it is built") {
    // Ten keys of ten values: 10^10 points (2.9 GB before it was counted first).
    std::string yaml = "name: big\nworkload: {profile: examples/mlp, batch: 4}\nsweep:\n";
    for (const char* key : {"workload.batch", "workload.forward_end", "platform.gpu.speed_scale", "platform.disk.bandwidth",
                            "platform.disk.latency", "platform.disk.read_latency", "platform.disk.write_latency",
                            "policy.swap.mode", "policy.allocator", "policy.recompute.a"})
        yaml += std::string("  ") + key + ": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\n";
    const std::string file = write_text(fresh_dir("big_sweep") / "big.yaml", yaml);
    CHECK_THROWS_WITH(plan_sweep(file, {}), Catch::Contains(file + ": sweep: the lists multiply to more than 100000 points"));
}

TEST_CASE("hostile sweeps: points are numbered with the first key varying slowest") {
    const std::string file = write_text(fresh_dir("small_sweep") / "s.yaml",
                                        "name: s\nworkload: {profile: examples/mlp, batch: 4}\n"
                                        "sweep: {policy.allocator: [os, pool], policy.swap.mode: [none, sync, async]}\n");
    const SweepPlan plan = plan_sweep(file, {});
    REQUIRE(plan.points.size() == 6);
    CHECK(plan.points[0].values == std::vector<std::string>{"os", "none"});
    CHECK(plan.points[2].values == std::vector<std::string>{"os", "async"});
    CHECK(plan.points[3].values == std::vector<std::string>{"pool", "none"});
    CHECK(plan.points[5].index == 6);
}

TEST_CASE("hostile sweeps: a malformed point summary is an error row naming the file") {
    const fs::path dir = fresh_dir("merge_bad");
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"[1, 2]", "not a JSON object but array"},
        {R"({"status": 7, "message": ""})", "field status is 7, not a string"},
        {R"({"status": "ok", "message": ["x"]})", "field message is [\"x\"], not a string"},
        {std::string(100000, '[') + std::string(100000, ']'), "nested deeper than 32 levels"},
        {"{\"status\": \"ok\"", "parse error"},
        {"", "empty"}};
    int index = 0;
    for (const auto& [text, what] : cases) {
        const SweepPoint point{++index, {}};
        const fs::path summary = fs::path(point_dir(dir.string(), point)) / "summary.json";
        write_text(summary, text);
        INFO(text.substr(0, 40));
        const PointResult r = read_point_result(dir.string(), point);
        CHECK(r.status == "error");
        CHECK_THAT(r.message, Catch::Contains(summary.string() + ": unreadable") && Catch::Contains(what));
    }
    const SweepPoint folder{++index, {}};
    fs::create_directories(fs::path(point_dir(dir.string(), folder)) / "summary.json");
    const PointResult r = read_point_result(dir.string(), folder);
    CHECK(r.status == "error");
    CHECK_THAT(r.message, Catch::Contains("is a directory"));
    const SweepPoint good{++index, {}};
    write_text(fs::path(point_dir(dir.string(), good)) / "summary.json", R"({"status": "oom", "message": "m", "peak_bytes": 5})");
    const PointResult g = read_point_result(dir.string(), good);
    CHECK(g.status == "oom");
    CHECK(g.message == "m");
}
