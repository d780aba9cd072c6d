// Issue 18, items 2 and 3: YAML aliases and duplicate keys cannot blow up or mislead a
// run, and no value SimGrid cannot handle gets past the scenario check.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include "hostile_support.h"
#include "models/workload/input_error.h"
#include "sim/scenario/scenario.h"
#include "sim/scenario/sweep_plan.h"

using namespace memsim;
using namespace memsim::test;
namespace fs = std::filesystem;

namespace {

const std::string kBase = "name: t\nworkload: {profile: examples/mlp, batch: 4}\n";

Scenario parse(const std::string& yaml, const std::vector<std::string>& sets = {}) {
    return parse_scenario(yaml, "t.yaml", sets, MEMSIM_SOURCE_DIR);
}

}  // namespace

TEST_CASE("hostile scenarios: a recursive alias is an error, in any section") {
    CHECK_THROWS_WITH(parse(kBase + "sweep: {description: &x [a, *x]}\n"),
                      Catch::Contains("t.yaml") && Catch::Contains("cyclic alias"));
    CHECK_THROWS_WITH(parse(kBase + "description: &d [*d]\n"), Catch::Contains("cyclic alias"));
    CHECK_THROWS_WITH(parse(kBase, {"description=&y [b, *y]"}), Catch::Contains("cyclic alias"));
}

TEST_CASE("hostile scenarios: billion laughs is refused before anything expands it") {
    std::string yaml = kBase + "sweep:\n  policy.swap.mode: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n";
    yaml += "x:\n";
    const std::string names = "abcdefghi";
    for (std::size_t i = 1; i < names.size(); ++i) {
        yaml += "  " + std::string(1, names[i]) + ": &" + names[i] + " [";
        for (int k = 0; k < 10; ++k) yaml += std::string(k ? ", " : "") + "*" + names[i - 1];
        yaml += "]\n";
    }
    CHECK_THROWS_WITH(parse(yaml), Catch::Contains("has more than 100000 values, counting each alias"));
    // A few shared aliases, as people write them, are fine.
    CHECK_NOTHROW(parse(kBase + "policy: &p {allocator: pool}\nsweep: {policy.allocator: [os, pool]}\n"));
}

TEST_CASE("hostile scenarios: a duplicate key is an error, in block and flow (JSON) style") {
    CHECK_THROWS_WITH(parse(kBase + "name: u\n"), Catch::Contains("t.yaml: name: duplicate key 'name'"));
    CHECK_THROWS_WITH(parse("{\"name\": \"a\", \"workload\": {\"profile\": \"examples/mlp\", \"batch\": 4, \"batch\": 8}}"),
                      Catch::Contains("workload.batch: duplicate key 'batch'"));
    CHECK_THROWS_WITH(parse(kBase + "platform: {disk: {latency: 1ms, latency: 2ms}}\n"),
                      Catch::Contains("platform.disk.latency: duplicate key"));
}

TEST_CASE("hostile scenarios: memsim run checks the size of the sweep section before running") {
    std::string yaml = "name: s\nworkload: {profile: examples/mlp, batch: 4}\nsweep:\n";
    for (const char* key : {"workload.batch", "platform.gpu.speed_scale", "platform.disk.bandwidth", "platform.disk.latency",
                            "policy.recompute.a", "policy.recompute.b"})
        yaml += std::string("  ") + key + ": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\n";
    const std::string file = write_text(fresh_dir("run_sweep") / "s.yaml", yaml);
    const fs::path out = fresh_dir("run_sweep_out") / "run";
    const Outcome o = run_memsim("run " + file + " -q --out " + out.string());
    CHECK(o.code == 1);
    CHECK_THAT(o.err, Catch::Contains("sweep: the lists multiply to more than 100000 points (at sweep.policy.recompute.b)"));
    CHECK_FALSE(fs::exists(out / "summary.json"));
}

TEST_CASE("hostile scenarios: values are checked after unit conversion, naming key and value") {
    // Finite before conversion, infinite after: minutes to milliseconds.
    CHECK_THROWS_WITH(parse(kBase, {"platform.disk.latency=1e306min"}),
                      Catch::Contains("--set 'platform.disk.latency=1e306min': platform.disk.latency: '1e306min'") && Catch::Contains("out of range"));
    CHECK_THROWS_WITH(parse(kBase, {"platform.disk.bandwidth=1e308TB/s"}),
                      Catch::Contains("platform.disk.bandwidth: '1e308TB/s'") && Catch::Contains("out of range"));
    CHECK_THROWS_WITH(parse(kBase, {"platform.disk.read_bandwidth=1e-300B/s"}),
                      Catch::Contains("platform.disk.read_bandwidth"));
    CHECK_THROWS_WITH(parse(kBase, {"platform.gpu.speed_scale=4.9e-324"}),
                      Catch::Contains("platform.gpu.speed_scale: '4.9e-324'"));
    CHECK_THROWS_WITH(parse(kBase, {"platform.gpu.speed_scale=.inf"}), Catch::Contains("platform.gpu.speed_scale"));
    CHECK_THROWS_WITH(parse(kBase, {"platform.memory.allow_ratio_above_one=true", "platform.memory.budget_ratio=1e300"}),
                      Catch::Contains("platform.memory.budget_ratio: '1e300'"));
    CHECK_THROWS_WITH(parse(kBase, {"policy.swap.prefetch={lead_ms: 1e300s}"}),
                      Catch::Contains("policy.swap.prefetch.lead_ms"));
    CHECK_THROWS_WITH(parse(kBase, {"policy.recompute.a=.nan"}), Catch::Contains("policy.recompute.a"));
    CHECK_THROWS_WITH(parse("name: t\nworkload: {synthetic: mlp, layers: 1e300}\n"),
                      Catch::Contains("workload.layers: '1e300'"));
    // The ends of the ranges are accepted.
    CHECK_NOTHROW(parse(kBase, {"platform.disk.bandwidth=1000TB/s", "platform.disk.latency=1e9ms", "platform.gpu.speed_scale=1e-3"}));
    CHECK_NOTHROW(parse(kBase, {"platform.disk.bandwidth=1B/s", "platform.gpu.speed_scale=1000"}));
}

TEST_CASE("hostile scenarios: memsim run exits 1 naming the key, never an abort inside SimGrid") {
    const std::string out = fresh_dir("latency_run").string();
    const Outcome o = run_memsim("run scenarios/swap_modes.yaml -q --set platform.disk.latency=1e306min --out " + out);
    CHECK(o.code == 1);
    CHECK_THAT(o.err, Catch::Contains("platform.disk.latency"));
}

TEST_CASE("hostile scenarios: text that is not UTF-8 is refused at load, not after the run (fuzz finding)") {
    // summary.json records the scenario; invalid UTF-8 made the JSON writer throw after the simulation.
    CHECK_THROWS_WITH(parse(kBase + "description: caf\xe9\n"), Catch::Contains("t.yaml: description: the value is not valid UTF-8"));
    CHECK_THROWS_WITH(parse(kBase + "policy: {allocator: \"poo\xbal\"}\n"), Catch::Contains("policy.allocator: the value is not valid UTF-8"));
    CHECK_THROWS_WITH(parse(kBase + "description: \xed\xa0\x80\n"), Catch::Contains("not valid UTF-8"));  // a surrogate
    CHECK_THROWS_WITH(parse(kBase + "description: \xc0\xaf\n"), Catch::Contains("not valid UTF-8"));      // overlong
    CHECK_NOTHROW(parse(kBase + "description: caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\n"));
}

TEST_CASE("hostile scenarios: a path name too long for the OS is an error naming the key (fuzz finding)") {
    CHECK_THROWS_WITH(parse(kBase, {"platform=" + std::string(5000, 'p') + ".yaml"}),
                      Catch::Contains("--set 'platform=ppp") && Catch::Contains(": platform: 'ppp") &&
                          Catch::Contains("does not exist"));
}

TEST_CASE("hostile scenarios: a --set key with an empty name is an error naming the gap (issue 31, item 3)") {
    // platform.=x set the whole platform to "x" after the platform file was inlined: yaml-cpp's
    // own BadSubscript escaped ("operator[] call on a scalar"), and aborted the fuzz target.
    CHECK_THROWS_WITH(parse(kBase, {"platform.=x"}),
                      Catch::StartsWith("--set 'platform.=x': the key 'platform.' has an empty name after its last dot"));
    // workload.batch.=3 set workload.batch silently: getline drops a trailing empty part.
    CHECK_THROWS_WITH(parse(kBase, {"workload.batch.=8"}), Catch::Contains("empty name after its last dot"));
    CHECK_THROWS_WITH(parse(kBase, {".name=x"}), Catch::Contains("empty name before its first dot"));
    CHECK_THROWS_WITH(parse(kBase, {"platform..memory.budget=1MB"}), Catch::Contains("empty name between two dots"));
    CHECK_THROWS_WITH(parse(kBase, {"."}), Catch::Contains("expected KEY=VALUE"));
    CHECK(parse(kBase, {"workload.batch=8"}).workload.batch == 8);
}

TEST_CASE("hostile scenarios: a second YAML document is an error, not ignored (issue 31, item 9)") {
    CHECK_THROWS_WITH(parse(kBase + "---\nworkload: {batch: 8}\n"),
                      Catch::StartsWith("t.yaml: holds 2 YAML documents") && Catch::Contains("a scenario is one document"));
    CHECK_THROWS_WITH(parse(kBase + "...\n---\n"), Catch::Contains("holds 2 YAML documents"));
    // In a file, in a platform file it names, and in a --set value.
    const fs::path dir = fresh_dir("two_documents");
    const std::string scenario = write_text(dir / "s.yaml", kBase + "---\nname: other\n");
    CHECK_THROWS_WITH(load_scenario(scenario), Catch::StartsWith(scenario + ": holds 2 YAML documents"));
    const std::string platform = write_text(dir / "p.yaml", "disk: {bandwidth: 1MB/s}\n---\ndisk: {bandwidth: 2MB/s}\n");
    CHECK_THROWS_WITH(parse(kBase + "platform: " + platform + "\n"),
                      Catch::StartsWith(platform + ": holds 2 YAML documents") && Catch::Contains("a platform file is one"));
    CHECK_THROWS_WITH(parse(kBase, {"workload.batch=4\n---\n8"}), Catch::Contains("a value is one document"));
    // One document with its marker, or none, is fine.
    CHECK(parse("---\n" + kBase).name == "t");
    CHECK(parse(kBase + "...\n").name == "t");
}

TEST_CASE("hostile scenarios: a long plain list is not blamed on aliases, and sweep.x names what to do (issue 31, item 10)") {
    std::string yaml = kBase + "description: [";
    for (int i = 0; i < 100001; ++i) yaml += i ? ",1" : "1";
    yaml += "]\n";
    try {
        parse(yaml);
        FAIL("a list of 100,001 values was accepted");
    } catch (const InputError& e) {
        CHECK_THAT(e.what(), Catch::Contains("more than 100000 values") && !Catch::Contains("aliases repeating"));
    }
    try {
        parse(kBase, {"sweep.x=1"});
        FAIL("--set sweep.x was accepted");
    } catch (const InputError& e) {
        CHECK_THAT(e.what(), Catch::Contains("'sweep' maps dotted scenario keys to lists") && !Catch::Contains("(valid: )"));
    }
}

TEST_CASE("hostile scenarios: a ',' outside brackets at the top level ends, as a second document (scenario fuzz timeout)") {
    // YAML::LoadAll returned empty documents forever on it, allocating (the scenario fuzz
    // target's two timeouts; `memsim run` said "std::bad_alloc" under a 1.5 GB limit).
    for (const std::string& yaml : std::vector<std::string>{",\n", ", n: 8}\n" + kBase, "[a, b]\n,\n", "- a\n,\n", "\"a\",\n", "--- ,\n"})
        CHECK_THROWS_WITH(parse(yaml), Catch::StartsWith("t.yaml: holds 2 YAML documents") &&
                                           Catch::Contains("such as a ',' outside brackets"));
    CHECK_THROWS_WITH(parse(kBase + ",\n"), Catch::StartsWith("t.yaml: invalid YAML at line 3"));
    CHECK_THROWS_WITH(parse(kBase, {"description=[a]\n,"}), Catch::Contains("holds 2 YAML documents"));
    CHECK(parse(kBase + "sweep: {description: [a,\n  b, c]}\n").name == "t");  // commas inside brackets are fine
}

TEST_CASE("hostile scenarios: a control character is refused before yaml-cpp reads the text") {
    // yaml-cpp 0.7 misreads some (a NUL in a flow-map key came back as a backspace). Line
    // and column are 1-based.
    const std::string nul(1, '\0');
    CHECK_THROWS_WITH(parse("name: syn\nwork: {read_" + nul + "m.memory.budget: [1MB, 2MiB]}\n"),
                      Catch::StartsWith("t.yaml: line 2, column 13: control character 0x00"));
    CHECK_THROWS_WITH(parse(kBase + "description: a\x01" "b\n"), Catch::Contains("line 3, column 15: control character 0x01"));
    CHECK_THROWS_WITH(parse(kBase + "description: \x7f\n"), Catch::Contains("control character 0x7f"));
    CHECK_THROWS_WITH(parse(kBase, {"description={" + nul + "}"}),
                      Catch::Equals("--set 'description={?}': character 14 is control character 0x00 (YAML allows none but "
                                    "tab, line feed and carriage return; write it escaped in a double-quoted string)"));
    // Tabs, line feeds and carriage returns are YAML's own; an escaped NUL in a
    // double-quoted string is a value like any other (and the sweep re-reads it safely).
    CHECK(parse("name: t\r\nworkload: {profile: examples/mlp,\tbatch: 4}\r\n").name == "t");
    CHECK_NOTHROW(check_sweep_section(parse(kBase + "sweep: {description: [\"{\\0}\", \"a\\x01\"]}\n")));
}
