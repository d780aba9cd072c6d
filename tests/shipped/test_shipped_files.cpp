// Every shipped scenario and platform file parses, and every point of every scenario on
// the project's own workloads (its base and its sweep) passes the checks a run makes
// before it simulates (those on ../shared: tests/shared/; the runs themselves:
// tests/shipped/test_golden_scenarios.cpp).
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "file_support.h"
#include "shipped_support.h"
#include "sim/scenario/scenario.h"

using namespace memsim;
namespace fs = std::filesystem;

TEST_CASE("shipped: every platform file in configs/ parses") {
    // Bytes per second, read and write, worked out from each file's bandwidth text
    // (KB/MB/GB are powers of 1000, MiB of 1024).
    const std::map<std::string, std::pair<double, double>> rates = {
        {"host_ram_pcie4", {25e9, 25e9}},
        {"nvme_datacenter", {3.2e9, 3.2e9}},
        {"phone", {104094472 / 4.452, 104094472 / 4.452}},
        {"phone_redmi", {263.05 * 1048576, 121.54 * 1048576}},
        {"phone_samsung", {797.91 * 1048576, 315.22 * 1048576}},
    };
    const auto files = test::yaml_files_in("configs");
    CHECK(files.size() == rates.size());
    for (const fs::path& f : files) {
        INFO(f.string());
        const Scenario s = parse_scenario("name: c\nworkload: {synthetic: uniform_linear, n: 4}\nplatform: " + f.string() + "\n", "t.yaml");
        CHECK(s.platform.name == f.stem().string());
        REQUIRE(rates.count(f.stem().string()) == 1);
        const auto [read, write] = rates.at(f.stem().string());
        CHECK(s.platform.disk.read_bytes_per_s == Approx(read).epsilon(1e-12));
        CHECK(s.platform.disk.write_bytes_per_s == Approx(write).epsilon(1e-12));
    }
}

TEST_CASE("shipped: every point of every scenario on the project's own workloads passes the checks before a run") {
    // Bases and sweep points: budget_tradeoff 1 + 4 x 6, disk_speed_whatif 1 + 9, example 1,
    // swap_modes 1 + 3, traced_budget 1 + 3 x 6, traced_resnet18_b2 1 (no sweep),
    // traced_gpt_swap 1 + 2; the node studies (docs/tiers.md): tiers_gpus_share_disk 1 + 4,
    // tiers_host_ram_sweep 1 + 6, tiers_bounce_vs_direct 1 + 2,
    // tiers_lifetime_vs_host_then_disk 1 + 4, tiers_platform_file 1 (no sweep); gpt3_a100 1 (no sweep);
    // the data-parallel studies (docs/parallel.md): parallel_gpt_buckets 1 + 5, parallel_gpt_links 1 + 4, parallel_gpt_offload 1.
    CHECK(test::check_shipped_points(false) == 25 + 10 + 1 + 4 + 19 + 1 + 3 + 5 + 7 + 3 + 5 + 1 + 1 + 6 + 5 + 1);
}

// examples/mlp is the project's own workload, written by `memsim generate` (never data
// from ../shared): the shipped files are exactly what the generator writes today.
TEST_CASE("shipped: examples/mlp is byte for byte what memsim generate writes") {
    const fs::path dir = test::fresh_dir("generated_mlp");
    const test::Outcome o = test::run_memsim("generate " + dir.string() + " --batch 1 2 4 8");
    INFO(o.err);
    REQUIRE(o.code == 0);
    int compared = 0;
    for (const auto& e : fs::directory_iterator("examples/mlp")) {
        INFO(e.path().string());
        REQUIRE(fs::exists(dir / e.path().filename()));
        CHECK(test::read_file(dir / e.path().filename()) == test::read_file(e.path()));
        ++compared;
    }
    CHECK(compared == std::distance(fs::directory_iterator(dir), fs::directory_iterator{}));
    CHECK(compared == 13);
}
