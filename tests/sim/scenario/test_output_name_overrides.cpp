// A run with --set does not overwrite the results of the run without (issue 15): the
// default folder carries the overrides; a chosen output.dir does not.
#include <catch2/catch.hpp>

#include "models/policy_table.h"
#include "sim/scenario/output_name.h"
#include "sim/scenario/scenario.h"
#include "sim/scenario/set_origin.h"

using namespace memsim;

TEST_CASE("output folder: --set overrides are part of the default folder name") {
    const std::string yaml = "name: demo\nworkload: {synthetic: mlp}\n";
    CHECK(parse_scenario(yaml, "t.yaml").output.dir == "out/demo");
    CHECK(parse_scenario(yaml, "t.yaml", {"policy.swap.mode=async"}).output.dir == "out/demo--policy.swap.mode=async");
    CHECK(parse_scenario(yaml, "t.yaml", {"platform.disk.bandwidth=1 GB/s", "output.gantt=true"}).output.dir ==
          "out/demo--platform.disk.bandwidth=1_GB_s");
    CHECK(parse_scenario(yaml, "t.yaml", {"policy.swap.mode=async", "output.dir=elsewhere"}).output.dir == "elsewhere");
    CHECK(parse_scenario(yaml + "output: {dir: mine}\n", "t.yaml", {"workload.batch=2"}).output.dir == "mine--workload.batch=2");
    // Long overrides: cut, with a hash of the whole that tells two of them apart.
    const std::string a = output_dir_with_overrides("out/x", {"workload.dtr_log=" + std::string(300, 'a')});
    const std::string b = output_dir_with_overrides("out/x", {"workload.dtr_log=" + std::string(299, 'a') + "b"});
    CHECK(a.size() == std::string("out/x").size() + 160 + 17);
    CHECK(a != b);
}

TEST_CASE("set errors: an error in a --set value names the --set, a wrong-case choice suggests the valid name") {
    CHECK(key_origin("f.yaml", {"a.b=1", "c=2"}, "a.b") == "--set 'a.b=1'");
    CHECK(key_origin("f.yaml", {"a.b=1"}, "a.b.c") == "--set 'a.b=1'");
    CHECK(key_origin("f.yaml", {"a.b.c=1"}, "a.b") == "--set 'a.b.c=1'");
    CHECK(key_origin("f.yaml", {"a.bc=1"}, "a.b") == "f.yaml");
    CHECK(closest_name("DTR", {"dtr", "lru", "size"}) == "dtr");
    CHECK(closest_name("Async", {"none", "sync", "semi_sync", "async"}) == "async");
    CHECK_THROWS_WITH(parse_scenario("workload: {synthetic: mlp}\n", "t.yaml", {"policy.recompute.heuristic=DTR"}),
                      "--set 'policy.recompute.heuristic=DTR': policy.recompute.heuristic: unknown value 'DTR' (did you "
                      "mean 'dtr'?)");
    CHECK_THROWS_WITH(parse_scenario("workload: {synthetic: mlp}\n", "t.yaml", {"-q"}),
                      Catch::StartsWith("--set '-q': expected KEY=VALUE"));
}
