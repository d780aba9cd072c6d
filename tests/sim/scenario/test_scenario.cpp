// Scenario files: schema, units, overrides, platform files and the error messages a user sees.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "models/policy_table.h"
#include "models/workload/input_error.h"
#include "sim/scenario/scenario.h"
#include "error_support.h"
#include "file_support.h"

using namespace memsim;
namespace fs = std::filesystem;

namespace {

const char* kYaml = R"(
name: t
workload: {profile: examples/mlp, batch: 4}
platform:
  disk: {bandwidth: 23.4MB/s}
policy: {allocator: pool}
)";

using test::error_of;  // error_support.h

}  // namespace

TEST_CASE("scenario: a minimal scenario and its defaults") {
    const Scenario s = parse_scenario(kYaml, "t.yaml");
    CHECK(s.name == "t");
    CHECK(s.workload.batch == 4);
    CHECK(s.policy.allocator == "pool");
    CHECK(s.policy.semantics == "simulated");
    CHECK(s.policy.swap.mode == "none");
    CHECK(s.platform.disk.read_bytes_per_s == 23.4e6);
    CHECK(s.platform.disk.write_bytes_per_s == 23.4e6);
    CHECK_FALSE(s.platform.memory_budget.has_value());
    CHECK(s.output.dir == "out/t");
}

TEST_CASE("scenario: --set overrides by dotted path, creating maps") {
    const Scenario s = parse_scenario(kYaml, "t.yaml",
                                      {"workload.batch=8", "policy.swap.mode=async", "platform.memory.budget=1.5MiB",
                                       "policy.swap.prefetch.lead_ops=3", "platform.disk.read_bandwidth=1GB/s"});
    CHECK(s.workload.batch == 8);
    CHECK(s.policy.swap.mode == "async");
    CHECK(s.platform.memory_budget == std::uint64_t{1572864});
    CHECK(s.policy.swap.prefetch == "lead_ops");
    CHECK(s.policy.swap.prefetch_params == ParamValues{{"lead", std::uint64_t{3}}});
    CHECK(s.platform.disk.read_bytes_per_s == 1e9);
    CHECK(s.platform.disk.write_bytes_per_s == 23.4e6);  // only reads were overridden
    // The resolved scenario records the overrides.
    CHECK(s.resolved["workload"]["batch"].as<int>() == 8);
}

TEST_CASE("scenario: prefetch forms") {
    auto prefetch = [](const std::string& v) {
        const SwapSpec swap = parse_scenario(kYaml, "t.yaml", {"policy.swap.prefetch=" + v}).policy.swap;
        return std::pair{swap.prefetch, swap.prefetch_params};
    };
    CHECK(prefetch("eager") == std::pair{std::string("eager"), ParamValues{}});
    CHECK(prefetch("just_in_time").first == "just_in_time");
    CHECK(prefetch("{lead_ops: 5}") == std::pair{std::string("lead_ops"), ParamValues{{"lead", std::uint64_t{5}}}});
    CHECK(prefetch("{lead_ms: 1.5s}") == std::pair{std::string("lead_ms"), ParamValues{{"lead", 1500.0}}});
    CHECK_THAT(error_of([&] { prefetch("jit"); }), Catch::Contains("policy.swap.prefetch"));
}

TEST_CASE("scenario error: unknown keys suggest the closest valid key") {
    CHECK_THAT(error_of([] { parse_scenario(kYaml, "t.yaml", {"policy.alocator=os"}); }),
               Catch::Contains(
                   "--set 'policy.alocator=os': policy.alocator: unknown key 'policy.alocator' (did you mean 'allocator'?)"));
    CHECK_THAT(error_of([] { parse_scenario(kYaml, "t.yaml", {"platform.disk.bandwith=1GB/s"}); }),
               Catch::Contains("did you mean 'bandwidth'?"));
    CHECK_THAT(error_of([] { parse_scenario(std::string(kYaml) + "wokload: {}\n", "t.yaml"); }),
               Catch::Contains("did you mean 'workload'?"));
}

TEST_CASE("scenario error: bad values name the file, the key and the value") {
    CHECK_THAT(
        error_of([] { parse_scenario(kYaml, "t.yaml", {"policy.swap.mode=asynch"}); }),
        Catch::Contains("--set 'policy.swap.mode=asynch': policy.swap.mode: unknown value 'asynch' (did you mean 'async'?)"));
    CHECK_THAT(
        error_of([] { parse_scenario(kYaml, "t.yaml", {"platform.disk.bandwidth=12XB/s"}); }),
        Catch::Contains("--set 'platform.disk.bandwidth=12XB/s': platform.disk.bandwidth: '12XB/s': unknown size unit 'XB'"));
    CHECK_THAT(error_of([] { parse_scenario(kYaml, "t.yaml", {"workload.batch=-3"}); }),
               Catch::Contains("--set 'workload.batch=-3': workload.batch: -3 must be >= 1"));
    CHECK_THAT(error_of([] { parse_scenario(kYaml, "t.yaml", {"policy.swap.prefetch.lead_ops=-1"}); }),
               Catch::Contains("policy.swap.prefetch.lead_ops: must be >= 0"));
    CHECK_THAT(error_of([] { parse_scenario(kYaml, "t.yaml", {"platform.memory.budget=lots"}); }),
               Catch::Contains("platform.memory.budget"));
}

TEST_CASE("scenario error: malformed overrides and YAML") {
    CHECK_THAT(error_of([] { parse_scenario(kYaml, "t.yaml", {"=4"}); }), Catch::Contains("expected KEY=VALUE"));
    CHECK_THAT(error_of([] { parse_scenario(kYaml, "t.yaml", {"workload.batch.x=4"}); }),
               Catch::Contains("workload.batch.x: 'workload.batch' is a single value, not a map"));
    CHECK_THAT(error_of([] { parse_scenario("name: [unclosed", "bad.yaml"); }),
               Catch::Contains("bad.yaml: invalid YAML at line 1"));
    CHECK_THAT(error_of([] { parse_scenario("- a\n- b\n", "list.yaml"); }),
               Catch::Contains("list.yaml: a scenario must be a map of keys"));
    CHECK_THAT(error_of([] { load_scenario("no/such/scenario.yaml"); }), Catch::Contains("no/such/scenario.yaml"));
}

TEST_CASE("scenario: a platform file is inlined and can be overridden") {
    const fs::path dir = test::fresh_dir("scenario_platform_file");
    std::ofstream(dir / "disk.yaml") << "name: slow\ndisk: {read_bandwidth: 10MB/s, write_bandwidth: 5MB/s, latency: 2ms}\n"
                                        "memory: {budget: 64MiB}\n";
    const std::string text = "name: p\nworkload: {synthetic: uniform_linear, n: 8}\nplatform: disk.yaml\n";
    const Scenario s = parse_scenario(text, "p.yaml", {"platform.disk.write_bandwidth=20MB/s"}, dir.string());
    CHECK(s.platform.name == "slow");
    CHECK(s.platform.disk.read_bytes_per_s == 10e6);
    CHECK(s.platform.disk.write_bytes_per_s == 20e6);
    CHECK(s.platform.disk.read_latency_ms == 2.0);
    CHECK(s.platform.memory_budget == std::uint64_t{64} << 20);
    CHECK_THAT(error_of([&] { parse_scenario("name: p\nworkload: {synthetic: uniform_linear, n: 8}\nplatform: nope.yaml\n",
                                             "p.yaml", {}, dir.string()); }),
               Catch::Contains("nope.yaml"));
    fs::remove_all(dir);
}

TEST_CASE("scenario: closest_name suggests keys too") {
    CHECK(closest_name("alocator", {"allocator", "semantics", "swap"}) == "allocator");
    CHECK(closest_name("zzzzzzzz", {"allocator", "semantics"}).empty());
}
