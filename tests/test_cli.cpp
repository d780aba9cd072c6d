// The memsim binary end to end: exit codes, what it prints, summary.json, determinism.
#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

using nlohmann::json;
namespace fs = std::filesystem;

namespace {

struct Outcome {
    int code = -1;
    std::string out, err;
};

std::string slurp(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

fs::path scratch_dir(const std::string& name) {
    const fs::path dir = fs::temp_directory_path() / ("memsim_cli_" + std::to_string(::getpid())) / name;
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

// Runs `memsim ARGS` from the source tree (where the tests run).
Outcome memsim(const std::string& args) {
    const fs::path dir = scratch_dir("io");
    const std::string cmd = std::string(MEMSIM_BINARY) + " " + args + " >" + (dir / "out").string() + " 2>" + (dir / "err").string();
    const int status = std::system(cmd.c_str());
    Outcome o;
    o.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128;
    o.out = slurp(dir / "out");
    o.err = slurp(dir / "err");
    return o;
}

}  // namespace

TEST_CASE("cli: --help everywhere, exit 0") {
    for (const std::string cmd : {"--help", "run --help", "info --help", "generate --help", "sweep --help", "merge --help"}) {
        INFO(cmd);
        const Outcome o = memsim(cmd);
        CHECK(o.code == 0);
        CHECK_THAT(o.out, Catch::Contains("Usage"));
    }
    const Outcome none = memsim("");
    CHECK(none.code != 0);
}

TEST_CASE("cli: run writes summary.json with every documented field") {
    const fs::path dir = scratch_dir("run");
    const Outcome o = memsim("run scenarios/example.yaml --out " + dir.string());
    REQUIRE(o.code == 0);
    CHECK(o.err.empty());
    CHECK_THAT(o.out, Catch::Contains("scenario   example  [ok]"));
    const json s = json::parse(slurp(dir / "summary.json"));
    for (const char* key : {"peak_bytes", "time_ms", "compute_ms", "stall_ms", "bytes_written", "bytes_read", "recomputed_ops",
                            "recompute_ms", "ops", "allocator", "status", "swapped_tensors", "scenario_resolved"})
        CHECK(s.contains(key));
    // examples/mlp batch 4 under the pool allocator (as `memsim info` reports it).
    CHECK(s["status"] == "ok");
    CHECK(s["allocator"] == "pool");
    CHECK(s["ops"] == 59);
    CHECK(s["peak_bytes"] == 10885696);
    CHECK(s["time_ms"].get<double>() == Approx(13.334752).epsilon(1e-9));
    CHECK(s["scenario_resolved"]["output"]["dir"] == dir.string());
}

TEST_CASE("cli: the same scenario gives the same bytes") {
    const fs::path a = scratch_dir("det_a"), b = scratch_dir("det_b");
    const std::string sets = "--set policy.swap.mode=async --set output.events=true --set output.trace=true --set output.gantt=true";
    REQUIRE(memsim("run scenarios/swap_modes.yaml -q " + sets + " --out " + a.string()).code == 0);
    REQUIRE(memsim("run scenarios/swap_modes.yaml -q " + sets + " --out " + b.string()).code == 0);
    for (const char* file : {"events.csv", "trace.json", "gantt.html"}) {
        INFO(file);
        CHECK(!slurp(a / file).empty());
        CHECK(slurp(a / file) == slurp(b / file));
    }
}

TEST_CASE("cli: bad input is an error naming the file, the key and the value, exit 1") {
    const Outcome typo = memsim("run scenarios/example.yaml --set policy.alocator=os");
    CHECK(typo.code == 1);
    CHECK_THAT(typo.err, Catch::Contains("scenarios/example.yaml: policy.alocator") && Catch::Contains("did you mean 'allocator'?"));
    const Outcome batch = memsim("run scenarios/example.yaml --set workload.batch=3");
    CHECK(batch.code == 1);
    CHECK_THAT(batch.err, Catch::Contains("mlp.3.tensor_size.json") && Catch::Contains("batches measured: 1 2 4 8"));
    const Outcome missing = memsim("run no_such_scenario.yaml");
    CHECK(missing.code != 0);
    CHECK_THAT(missing.err, Catch::Contains("no_such_scenario.yaml"));
    const Outcome info = memsim("info examples/nope --batch 4");
    CHECK(info.code == 1);
    CHECK_THAT(info.err, Catch::Contains("examples/nope"));
}

TEST_CASE("cli: an out-of-memory run writes its summary and exits 2") {
    const fs::path dir = scratch_dir("oom");
    const Outcome o = memsim("run scenarios/example.yaml -q --set platform.memory.budget=1KB --set policy.recompute.heuristic=dtr --out " +
                             dir.string());
    CHECK(o.code == 2);
    CHECK_THAT(o.err, Catch::Contains("memsim: oom: out of memory at op"));
    const json s = json::parse(slurp(dir / "summary.json"));
    CHECK(s["status"] == "oom");
    CHECK_THAT(s["message"].get<std::string>(), Catch::Contains("budget 1000 B"));
}

TEST_CASE("cli: info --json on the shipped example") {
    const Outcome o = memsim("info examples/mlp --batch 4 --json");
    REQUIRE(o.code == 0);
    const json j = json::parse(o.out);
    CHECK(j["ops"] == 59);
    CHECK(j["forward_end"] == 30);
    CHECK(j["oracle_peak_bytes"] == 7993384);
    CHECK(j["pool_peak_bytes"] == 10885696);
    CHECK(j["feature_map_bytes"] == 4858472);
}

TEST_CASE("shared: cli run on MobilenetV2 batch 4 agrees with info, exactly") {
    const Outcome info = memsim("info ../shared/profiles/MobilenetV2 --batch 4 --json");
    REQUIRE(info.code == 0);
    const json i = json::parse(info.out);
    CHECK(i["oracle_peak_bytes"] == 584812452);
    CHECK(i["pool_peak_bytes"] == 623193344);
    CHECK(i["forward_end"] == 1438);
    for (const std::string allocator : {"os", "pool"}) {
        const fs::path dir = scratch_dir("mb_" + allocator);
        const Outcome o = memsim("run scenarios/mobilenetv2_b4.yaml -q --set policy.allocator=" + allocator + " --out " + dir.string());
        REQUIRE(o.code == 0);
        const json s = json::parse(slurp(dir / "summary.json"));
        CHECK(s["peak_bytes"] == i[allocator == "os" ? "oracle_peak_bytes" : "pool_peak_bytes"]);
        CHECK(s["time_ms"].get<double>() == Approx(i["compute_ms"].get<double>()).epsilon(1e-12));
        CHECK(s["ops"] == 4304);
    }
}
