// The memsim binary end to end: exit codes, what it prints, summary.json, determinism.
#include <catch2/catch.hpp>

#include <filesystem>
#include <map>
#include <set>
#include <sstream>
#include <vector>

#include <nlohmann/json.hpp>

#include "file_support.h"

using nlohmann::json;
namespace fs = std::filesystem;

using memsim::test::fresh_dir;
using memsim::test::Outcome;
using memsim::test::read_file;

using memsim::test::run_memsim;

TEST_CASE("cli: --help everywhere, exit 0, every subcommand listing its options") {
    // Each subcommand's positionals and options, as its --help must list them.
    const std::map<std::string, std::vector<std::string>> options = {
        {"run", {"scenario", "--set", "--out", "--quiet", "Policy choices", "output.torch_snapshot"}},
        {"info", {"profile", "--batch", "--dtr-log", "--forward-end", "--disk-bandwidth", "--costs", "--set", "--json"}},
        {"generate", {"out", "--batch", "--layers", "--width"}},
        {"sweep", {"scenario", "--set", "--out", "--jobs", "--emit-jobs", "--process-per-point"}},
        {"merge", {"dir"}},
        {"plan", {"profile", "--batch", "--dtr-log", "--records", "--strategy", "--offsets", "--align", "--seed", "--peer-iterations", "--json"}},
        {"trace", {"model", "--out", "--batch", "--input-shape", "--optimizer", "--device", "--repeat", "--no-rss", "--list"}},
        {"find", {"scenario", "--vary", "--maximize", "--minimize", "--range", "--until", "--while", "--set", "--tolerance", "--grid", "--jobs", "--out"}},
        {"compare", {"scenario", "--policies", "--set", "--jobs", "--out", "policy families: none, sync"}},
    };
    // The subcommands the program lists are exactly those above: a new one needs its line here.
    const Outcome top = run_memsim("--help");
    CHECK(top.code == 0);
    const auto listed = top.out.find("Subcommands:\n");
    REQUIRE(listed != std::string::npos);
    std::set<std::string> subcommands;
    std::istringstream lines(top.out.substr(listed + 13));
    for (std::string line; std::getline(lines, line) && !line.empty();)
        if (line.rfind("  ", 0) == 0 && line.size() > 2 && line[2] != ' ') subcommands.insert(line.substr(2, line.find(' ', 2) - 2));
    std::set<std::string> expected;
    for (const auto& [cmd, _] : options) expected.insert(cmd);
    CHECK(subcommands == expected);
    for (const auto& [cmd, listed_options] : options) {
        INFO(cmd);
        const Outcome o = run_memsim(cmd + " --help");
        CHECK(o.code == 0);
        CHECK_THAT(o.out, Catch::Contains("Usage") && Catch::Contains("-h,--help"));
        for (const std::string& option : listed_options) {
            INFO(option);
            CHECK_THAT(o.out, Catch::Contains(option));
        }
    }
    const Outcome none = run_memsim("");
    CHECK(none.code != 0);
}

TEST_CASE("cli: run writes summary.json with every documented field") {
    const fs::path dir = fresh_dir("run");
    const Outcome o = run_memsim("run scenarios/example.yaml --out " + dir.string());
    REQUIRE(o.code == 0);
    CHECK(o.err.empty());
    CHECK_THAT(o.out, Catch::Contains("scenario   example  [ok]"));
    const json s = json::parse(read_file(dir / "summary.json"));
    for (const char* key : {"peak_bytes", "time_ms", "compute_ms", "stall_ms", "bytes_written", "bytes_read", "recomputed_ops",
                            "recompute_ms", "ops", "allocator", "status", "swap_selected_tensors", "scenario_resolved"})
        CHECK(s.contains(key));
    // examples/mlp batch 4 under the pool allocator (as `memsim info` reports it).
    CHECK(s["status"] == "ok");
    CHECK(s["allocator"] == "pool");
    CHECK(s["ops"] == 59);
    CHECK(s["peak_bytes"] == 10885696);
    CHECK(s["time_ms"].get<double>() == Approx(13.334752).epsilon(1e-9));
    CHECK(s["scenario_resolved"]["output"]["dir"] == dir.string());
}

TEST_CASE("cli: run names every file it wrote") {
    const fs::path dir = fresh_dir("run_files");
    const Outcome o = run_memsim("run scenarios/example.yaml --set output.events=true --set output.gantt=true "
                                 "--set output.trace=true --out " + dir.string());
    REQUIRE(o.code == 0);
    for (const char* file : {"summary.json", "events.csv", "gantt.html", "trace.json"}) {
        INFO(file);
        CHECK(fs::exists(dir / file));
        CHECK_THAT(o.out, Catch::Contains("wrote      " + (dir / file).string() + "\n"));
    }
    const Outcome plain = run_memsim("run scenarios/example.yaml --out " + dir.string());
    REQUIRE(plain.code == 0);
    CHECK_THAT(plain.out, !Catch::Contains("gantt.html"));
}

TEST_CASE("cli: the same scenario gives the same bytes") {
    const fs::path a = fresh_dir("det_a"), b = fresh_dir("det_b");
    const std::string sets = "--set policy.swap.mode=async --set output.events=true --set output.trace=true --set output.gantt=true";
    REQUIRE(run_memsim("run scenarios/swap_modes.yaml -q " + sets + " --out " + a.string()).code == 0);
    REQUIRE(run_memsim("run scenarios/swap_modes.yaml -q " + sets + " --out " + b.string()).code == 0);
    for (const char* file : {"events.csv", "trace.json", "gantt.html"}) {
        INFO(file);
        CHECK(!read_file(a / file).empty());
        CHECK(read_file(a / file) == read_file(b / file));
    }
}

TEST_CASE("cli: bad input is an error naming the file, the key and the value, exit 1") {
    const Outcome typo = run_memsim("run scenarios/example.yaml --set policy.alocator=os");
    CHECK(typo.code == 1);
    CHECK_THAT(typo.err, Catch::Contains("--set 'policy.alocator=os': policy.alocator") && Catch::Contains("did you mean 'allocator'?"));
    const Outcome batch = run_memsim("run scenarios/example.yaml --set workload.batch=3");
    CHECK(batch.code == 1);
    CHECK_THAT(batch.err, Catch::Contains("mlp.3.tensor_size.json") && Catch::Contains("batches measured: 1 2 4 8"));
    const Outcome missing = run_memsim("run no_such_scenario.yaml");
    CHECK(missing.code != 0);
    CHECK_THAT(missing.err, Catch::Contains("no_such_scenario.yaml"));
    const Outcome info = run_memsim("info examples/nope --batch 4");
    CHECK(info.code == 1);
    CHECK_THAT(info.err, Catch::Contains("examples/nope"));
}

TEST_CASE("cli: an out-of-memory run writes its summary and exits 2") {
    const fs::path dir = fresh_dir("oom");
    const Outcome o = run_memsim("run scenarios/example.yaml -q --set platform.memory.budget=5MB --set policy.recompute.heuristic=dtr --out " +
                             dir.string());
    CHECK(o.code == 2);
    CHECK_THAT(o.err, Catch::Contains("memsim: oom: out of memory at op"));
    const json s = json::parse(read_file(dir / "summary.json"));
    CHECK(s["status"] == "oom");
    CHECK_THAT(s["message"].get<std::string>(), Catch::Contains("budget 5000000 B"));
}

TEST_CASE("cli: info --json on the shipped example") {
    const Outcome o = run_memsim("info examples/mlp --batch 4 --json");
    REQUIRE(o.code == 0);
    const json j = json::parse(o.out);
    CHECK(j["ops"] == 59);
    CHECK(j["forward_end"] == 30);
    CHECK(j["oracle_peak_bytes"] == 7993384);
    CHECK(j["pool_peak_bytes"] == 10885696);
    CHECK(j["feature_map_bytes"] == 4858472);
}

TEST_CASE("cli: a misspelt command is named with the closest one, exit 1") {
    const Outcome o = run_memsim("rnu scenarios/example.yaml");
    CHECK(o.code == 1);
    CHECK_THAT(o.err, Catch::Contains("memsim: error: unknown command 'rnu' (valid: run, info, generate, sweep, merge, plan, "
                                      "trace, find, compare; did you mean 'run'?)"));
    const Outcome jobs = run_memsim("sweep scenarios/example.yaml -j 0");
    CHECK(jobs.code == 1);
    CHECK_THAT(jobs.err, Catch::Contains("--jobs: Value 0 not in range 1 to 4096"));
}
