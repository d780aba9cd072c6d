// `memsim info SCENARIO.yaml`: the workload a scenario runs, as `run` loads it (device
// costs included), with its parameters, bytes by role, the activations alive at the
// forward's end, the FLOPs by operator class and whether the no-policy peak fits the
// GPU; the numbers worked out by hand for a 2-layer GPT (docs/workloads.md).
#include <catch2/catch.hpp>

#include <fstream>

#include <nlohmann/json.hpp>

#include "file_support.h"

using memsim::test::fresh_dir;
using memsim::test::Outcome;
using memsim::test::run_memsim;

namespace {

std::string gpt_scenario() {
    const auto path = fresh_dir("info_scenario") / "gpt.yaml";
    std::ofstream(path) << "name: gpt_small\n"
                           "workload: {synthetic: gpt, layers: 2, hidden: 64, heads: 4, seq: 32, batch: 2, vocab: 100, costs: device}\n"
                           "platform: {gpu: {preset: a100_80gb}}\n";
    return path.string();
}

}  // namespace

TEST_CASE("info scenario: a synthetic GPT's parameters, roles, activations and FLOPs, worked out by hand") {
    const std::string path = gpt_scenario();
    const Outcome o = run_memsim("info " + path + " --json");
    REQUIRE(o.code == 0);
    const nlohmann::json j = nlohmann::json::parse(o.out);
    // L(12h² + 13h) + Vh + sh + 2h = 2 x (49152 + 832) + 6400 + 2048 + 128.
    CHECK(j["parameters"] == 108544);
    CHECK(j["bytes_by_role"]["parameter"] == 2 * 108544);        // bf16
    CHECK(j["bytes_by_role"]["gradient"] == 2 * 108544);
    CHECK(j["bytes_by_role"]["optimizer_state"] == 12 * 108544); // fp32 master, m, v
    CHECK(j["bytes_by_role"]["input"] == 16 * 64);                // int64 tokens and labels, s x b = 64
    // sbh = 4096, as²b = 8192: per layer 34 x 4096 + 5 x 8192 = 180224; two layers, then the
    // embedding's mask (4096), the last layer's and the final norm's outputs (2 x 8192), fp32
    // logits (4 x 64 x 100 = 25600) and the loss (4).
    CHECK(j["forward_end_activation_bytes"] == 2 * 180224 + 4096 + 16384 + 25600 + 4);
    // 72·B·s·L·h²·(1 + s/6h + V/12Lh) = 37748736 + 3145728 + 2457600.
    CHECK(j["flops_by_class"]["matmul"]["flops"].get<double>() + j["flops_by_class"]["matmul_backward"]["flops"].get<double>() ==
          43352064.0);
    CHECK(j["costs"] == "device");
    CHECK(j["gpu"] == "a100_80gb");
    CHECK(j["gpu_memory_bytes"] == 85899345920ULL);
    CHECK(j["fits_gpu_memory"] == true);
    CHECK(j["ops"] == 85);
    // --set reaches the scenario: three layers add 12h² + 13h parameters.
    const Outcome three = run_memsim("info " + path + " --json --set workload.layers=3");
    REQUIRE(three.code == 0);
    CHECK(nlohmann::json::parse(three.out)["parameters"] == 108544 + 49152 + 832);
    // The table form prints a role per line.
    const Outcome table = run_memsim("info " + path);
    CHECK_THAT(table.out, Catch::Contains("bytes_by_role.optimizer_state 1302528"));
}

TEST_CASE("info scenario: profile options with a scenario, --set without one, are refused") {
    const std::string path = gpt_scenario();
    const Outcome batch = run_memsim("info " + path + " --batch 4");
    CHECK(batch.code == 1);
    CHECK_THAT(batch.err, Catch::Contains("--batch, --forward-end and --costs go with a profile folder"));
    const Outcome set = run_memsim("info examples/mlp --batch 4 --set workload.batch=2");
    CHECK(set.code == 1);
    CHECK_THAT(set.err, Catch::Contains("--set goes with a SCENARIO.yaml"));
    const Outcome bad = run_memsim("info " + path + " --set workload.heads=3");
    CHECK(bad.code == 1);
    CHECK_THAT(bad.err, Catch::Contains("workload.heads: 3 does not divide hidden 64"));
}
