// The outputs table (sim/scenario/output_table.h): its rows give the scenario's output
// keys, what an output needs, and the flags a sweep passes to every point.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "models/workload/input_error.h"
#include "sim/scenario/output_table.h"
#include "sim/scenario/scenario.h"
#include "sim/scenario/schema.h"
#include "sim/scenario/sweep_plan.h"
#include "error_support.h"

using namespace memsim;

namespace {

const char* kRows = "name: t\nworkload: {synthetic: uniform_linear, n: 4}\n";

using test::error_of;  // error_support.h

}  // namespace

TEST_CASE("outputs table: the rows a run writes, summary.json always and last") {
    std::vector<std::string> files, keys;
    for (const OutputRow& row : output_table()) {
        files.emplace_back(row.file);
        keys.push_back(output_key(row));
    }
    CHECK(files == std::vector<std::string>{"events.csv", "gantt.html", "trace.json", "memory_snapshot.pickle", "summary.json"});
    CHECK(keys == std::vector<std::string>{"output.events", "output.gantt", "output.trace", "output.torch_snapshot", ""});
    CHECK(output_table().back().always);
    CHECK(needs_text(output_table()[3].needs) == "policy.allocator: torch_caching");
}

TEST_CASE("outputs table: the schema's output keys are dir and one per row that is not always written") {
    const Field& root = schema();
    const auto output = std::find_if(root.children.begin(), root.children.end(), [](const Field& f) { return f.key == "output"; });
    REQUIRE(output != root.children.end());
    std::vector<std::string> keys;
    for (const Field& f : output->children) {
        keys.push_back(f.key);
        CHECK((f.kind == (f.key == "dir" ? Kind::String : Kind::Bool)));
    }
    CHECK(keys == std::vector<std::string>{"dir", "events", "gantt", "trace", "torch_snapshot"});
}

TEST_CASE("outputs table: the parser turns on the rows the scenario sets true, and only those") {
    const Scenario s = parse_scenario(std::string(kRows) + "output: {events: true, gantt: false, trace: true}\n", "t.yaml");
    CHECK(s.output.on == std::set<std::string, std::less<>>{"events", "trace"});
    CHECK(s.output.wants("events"));
    CHECK_FALSE(s.output.wants("gantt"));
    CHECK_FALSE(s.output.wants("summary"));  // always written: never a key
    CHECK(parse_scenario(kRows, "t.yaml", {"output.torch_snapshot=true"}).output.on ==
          std::set<std::string, std::less<>>{"torch_snapshot"});
}

TEST_CASE("outputs table: a bad output key or value names the file, the key and the value") {
    CHECK_THAT(error_of([] { parse_scenario(std::string(kRows) + "output: {gantt: maybe}\n", "t.yaml"); }),
               Catch::Contains("t.yaml: output.gantt: ") && Catch::Contains("'maybe'") && Catch::Contains("true or false"));
    CHECK_THAT(error_of([] { parse_scenario(kRows, "t.yaml", {"output.evnts=true"}); }),
               Catch::Contains("output.evnts: unknown key 'output.evnts' (did you mean 'events'?)"));
    CHECK_THAT(error_of([] { parse_scenario(std::string(kRows) + "output: {summary: true}\n", "t.yaml"); }),
               Catch::Contains("unknown key"));
}

TEST_CASE("outputs table: memory_snapshot.pickle needs an allocator that models segments, named in the error") {
    CHECK_THAT(error_of([] { validate_policy(parse_scenario(kRows, "t.yaml", {"output.torch_snapshot=true"})); }),
               Catch::Contains("output.torch_snapshot: memory_snapshot.pickle shows torch_caching's segments and blocks; "
                               "policy.allocator is 'os' (set it to torch_caching)"));
    validate_policy(parse_scenario(kRows, "t.yaml", {"output.torch_snapshot=true", "policy.allocator=torch_caching"}));
}

TEST_CASE("outputs table: a sweep records the sweep-point flags in sweep.json and passes each to every point") {
    const Scenario s = parse_scenario(std::string(kRows) + "output: {gantt: true, torch_snapshot: true}\n", "t.yaml");
    SweepPlan plan;
    plan.outputs = sweep_point_outputs(s.output);
    // torch_snapshot is no sweep-point flag: each point reads it from the scenario file.
    CHECK(plan.outputs == std::map<std::string, bool>{{"events", false}, {"gantt", true}, {"trace", false}});
    CHECK(output_overrides(plan) == std::vector<std::string>{"output.events=false", "output.gantt=true", "output.trace=false"});
    plan.default_dir = "out/t";
    const nlohmann::json json = plan_to_json(plan);
    CHECK(json.at("output").dump() == R"({"dir":"out/t","events":false,"gantt":true,"trace":false})");
    CHECK(plan_from_json(json, "sweep.json").outputs == plan.outputs);
    nlohmann::json missing = json;
    missing["output"].erase("trace");
    CHECK_THAT(error_of([&] { plan_from_json(missing, "sweep.json"); }),
               Catch::Contains("sweep.json: not a sweep plan written by memsim sweep") && Catch::Contains("'trace' not found"));
}

TEST_CASE("outputs table: memsim run --help lists every output with its key, file and needs") {
    CHECK(outputs_help() ==
          "Outputs (output.KEY: true in the scenario, or --set output.KEY=true):\n"
          "  output.events          events.csv              the event log\n"
          "  output.gantt           gantt.html              the Gantt chart\n"
          "  output.trace           trace.json              the Chrome trace\n"
          "  output.torch_snapshot  memory_snapshot.pickle  the PyTorch memory snapshot (needs policy.allocator: torch_caching)\n"
          "  (always)               summary.json            the run's figures and its resolved scenario; written last\n");
}
