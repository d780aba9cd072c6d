// Issue 18, item 6 on sweeps: the cartesian product is counted before it is built, and
// the merge reader turns any malformed point summary into an error row naming the file.
#include <catch2/catch.hpp>

#include <filesystem>
#include <stdexcept>

#include "hostile_support.h"
#include "models/workload/input_error.h"
#include "sim/report/point_results.h"
#include "sim/scenario/sweep_plan.h"

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

TEST_CASE("hostile sweeps: the product is generated point by point, never stored") {
    // Ten lists of ten values: 10^10 points, each made from its index when asked for.
    std::vector<SweepParameter> parameters;
    for (int i = 0; i < 10; ++i) parameters.push_back({"k" + std::to_string(i), {"0", "1", "2", "3", "4", "5", "6", "7", "8", "9"}});
    const SweepPoints points(parameters, 10000000000ULL);
    CHECK(points.size() == 10000000000ULL);
    CHECK(points[0].values == std::vector<std::string>(10, "0"));
    CHECK(points[1234567890].values == std::vector<std::string>{"1", "2", "3", "4", "5", "6", "7", "8", "9", "0"});
    CHECK(points[9999999999ULL].values == std::vector<std::string>(10, "9"));
    CHECK(points[41].index == 42);
    CHECK_THROWS_AS(points.at(10000000000ULL), std::out_of_range);
    // Iteration yields every point in order; a plan built point by point keeps its own list.
    const SweepPoints small({{"a", {"x", "y"}}, {"b", {"1", "2", "3"}}}, 6);
    std::vector<std::string> seen;
    for (const SweepPoint& p : small) seen.push_back(p.values[0] + p.values[1]);
    CHECK(seen == std::vector<std::string>{"x1", "x2", "x3", "y1", "y2", "y3"});
    SweepPoints listed = small;
    listed.push_back({9, {"y", "1"}});
    CHECK(listed.size() == 7);
    CHECK(listed[2].values == std::vector<std::string>{"x", "3"});
    CHECK(listed[6].index == 9);
}

TEST_CASE("hostile sweeps: a sweep.json point whose value is not in its parameter's list is an error naming the file") {
    // The plots place a point by its value's position in the list: before, a value not in
    // the list read past its end.
    nlohmann::json plan = {{"scenario_file", "/x.yaml"},
                           {"scenario_name", "x"},
                           {"overrides", nlohmann::json::array()},
                           {"parameters", {{{"key", "policy.swap.mode"}, {"values", {"none", "sync"}}}}},
                           {"points", {{{"index", 1}, {"values", {"none"}}}, {{"index", 2}, {"values", {"async"}}}}},
                           {"output", {{"events", false}, {"gantt", false}, {"trace", false}, {"dir", "out/x"}}}};
    CHECK_THROWS_WITH(plan_from_json(plan, "dir/sweep.json"),
                      Catch::Contains("dir/sweep.json: point 2: \"async\" is not one of the values of parameter policy.swap.mode"));
    plan["points"][1]["values"] = {"sync"};
    CHECK(plan_from_json(plan, "dir/sweep.json").points.size() == 2);
}
