// Issue 31, item 8: work that grew faster than its input. The DTR loader reads line by
// line (memory follows the workload, not the file), a sweep's points are built from the
// scenario parsed once (a key with N values cost N^2), and the synthetic generators size
// themselves against the process's memory limit. Speed and memory are measured by
// scripts/bench_hostile.sh, not here; these tests pin the behaviour that must not change.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "hostile_support.h"
#include "models/workload/dtr_log.h"
#include "models/workload/input_error.h"
#include "sim/scenario/scenario.h"
#include "sim/scenario/sweep_plan.h"

using namespace memsim;
using namespace memsim::test;
namespace fs = std::filesystem;

namespace {

const std::string kCall = R"({"ARGS":["x"],"INSTRUCTION":"CALL","NAME":"f","RESULT":["y"],"TIME":"1000"}
{"INSTRUCTION":"MEMORY","MEMORY":"20","NAME":"y"}
{"ALIAS":"-1","INSTRUCTION":"ALIAS","NAME":"y"}
)";
const std::string kConstant = R"({"INSTRUCTION":"CONSTANT","NAME":"x"}
{"INSTRUCTION":"MEMORY","MEMORY":"10","NAME":"x"}
)";
const std::string kStart = "{\"ANNOTATION\":\"START\",\"INSTRUCTION\":\"ANNOTATE\"}\n";

}  // namespace

TEST_CASE("hostile expansions: the DTR log read line by line keeps what START and the error order meant") {
    const fs::path dir = fresh_dir("dtr_stream");
    // Lines before the first START do not count, even a broken CONSTANT whose MEMORY line
    // would be the START itself (read ahead, then handed back).
    const std::string broken_prefix = write_text(dir / "prefix.log", "{\"INSTRUCTION\":\"CONSTANT\",\"NAME\":\"w\"}\n" + kStart +
                                                                         kConstant + kCall);
    const Workload w = load_dtr_log(broken_prefix);
    CHECK(w.ops.size() == 1);
    CHECK(w.tensors.size() == 2);  // x and y; w was before the START
    // Without a START the same broken line is an error, reported at its line.
    const std::string no_start = write_text(dir / "no_start.log", "{\"INSTRUCTION\":\"CONSTANT\",\"NAME\":\"w\"}\n" + kCall);
    CHECK_THROWS_WITH(load_dtr_log(no_start), Catch::StartsWith(no_start + ":2: missing MEMORY line for 'w'"));
    // An undefined argument before the START is dropped with everything before it.
    const std::string early = write_text(dir / "early.log", "{\"ARGS\":[\"nope\"],\"INSTRUCTION\":\"CALL\",\"NAME\":\"g\","
                                                            "\"RESULT\":[],\"TIME\":\"1\"}\n" + kStart + kConstant + kCall);
    CHECK(load_dtr_log(early).ops.size() == 1);
    // A malformed line anywhere wins over an earlier semantic error, as when every line was
    // parsed before any was handled; a second START is an ordinary annotation.
    const std::string both = write_text(dir / "both.log", kConstant + "{\"ARGS\":[\"nope\"],\"INSTRUCTION\":\"CALL\",\"NAME\":"
                                                                      "\"g\",\"RESULT\":[],\"TIME\":\"1\"}\n" + kCall + "{oops\n");
    CHECK_THROWS_WITH(load_dtr_log(both), Catch::StartsWith(both + ":7: malformed JSON line"));
    const std::string twice = write_text(dir / "twice.log", kStart + kConstant + kStart + kCall);
    CHECK(load_dtr_log(twice).ops.size() == 1);
    // Blank lines count in line numbers.
    const std::string blank = write_text(dir / "blank.log", "\n\n" + kConstant + "\n{\"INSTRUCTION\":\"BOGUS\"}\n");
    CHECK_THROWS_WITH(load_dtr_log(blank), Catch::StartsWith(blank + ":6: unknown instruction \"BOGUS\""));
}

TEST_CASE("hostile expansions: a sweep point is built from the scenario parsed once, without the sweep section") {
    const fs::path dir = fresh_dir("sweep_points");
    // One key with 3,000 values: each point used to parse all of them again.
    std::string values;
    for (int i = 0; i < 3000; ++i) values += fmt::format("{}{}", i ? ", " : "", 1 + i);
    const std::string file = write_text(dir / "s.yaml", "name: s\nworkload: {synthetic: uniform_linear, n: 3}\n"
                                                        "sweep: {workload.n: [" + values + "]}\n");
    const SweepPlan plan = plan_sweep(file, {"policy.allocator=pool"});
    REQUIRE(plan.points.size() == 3000);
    const ScenarioFile parsed(file);
    const Scenario point = parsed.load_point(point_overrides(plan, plan.points[2999]));
    CHECK(point.workload.synthetic_params.at("n") == 3000);
    CHECK(point.policy.allocator == "pool");
    CHECK_FALSE(point.resolved["sweep"]);
    Scenario whole = parsed.load(point_overrides(plan, plan.points[2999]));
    CHECK(whole.resolved["sweep"]);
    CHECK(yaml_to_json(whole.resolved).dump() != yaml_to_json(point.resolved).dump());
    whole.resolved.remove("sweep");
    CHECK(yaml_to_json(whole.resolved).dump() == yaml_to_json(point.resolved).dump());
    // A point's summary does not repeat the sweep (forked, and as a process per point).
    const std::string small = write_text(dir / "small.yaml", "name: small\nworkload: {synthetic: uniform_linear, n: 3}\n"
                                                             "sweep: {workload.n: [2, 3]}\n");
    for (const char* mode : {"", " --process-per-point"}) {
        INFO(mode);
        const fs::path out = dir / (*mode ? "out_processes" : "out_forked");
        REQUIRE(run_memsim(fmt::format("sweep {} -j 1 --out {}{}", small, out.string(), mode)).code == 0);
        const nlohmann::json summary = nlohmann::json::parse(read_file(out / "points" / "0002" / "summary.json"));
        CHECK(summary["scenario_resolved"]["workload"]["n"] == 3);
        CHECK_FALSE(summary["scenario_resolved"].contains("sweep"));
        CHECK_THAT(read_file(out / "points" / "0002" / "log.txt"), !Catch::Contains("this scenario has a sweep: section"));
    }
    // `memsim run` of the file itself still records its sweep section.
    REQUIRE(run_memsim("run " + small + " -q --out " + (dir / "base").string()).code == 0);
    CHECK(nlohmann::json::parse(read_file(dir / "base" / "summary.json"))["scenario_resolved"].contains("sweep"));
}

TEST_CASE("hostile expansions: a synthetic workload is sized against the process's memory limit, not the machine's") {
#ifdef MEMSIM_SANITIZE
    WARN("not run under the sanitizers: ASan reserves terabytes of address space, so ulimit -v cannot apply");
#else
    const std::string scenario =
        write_text(fresh_dir("synthetic_limit") / "big.yaml", "name: big\nworkload: {synthetic: uniform_linear, n: 1000000}\n");
    const Outcome o = run_memsim_with("ulimit -v 3000000;", "run " + scenario + " -q --out " +
                                                                (fresh_dir("synthetic_limit_out") / "o").string());
    CHECK(o.code == 1);
    CHECK_THAT(o.err, Catch::Contains("2000000 operators and 2000000 tensors need about 3.8 GiB, more than half of the "
                                      "address-space limit (ulimit -v), 2.9 GiB"));
#endif
}
