// What a new user does next (issue 32), end to end through the binary: --set that
// replaces a platform or one of two exclusive keys, run and sweep resolving a scenario
// the same way, headers that say what applied, the table a sweep prints, what no policy
// can go below, the errors that point to the fix. The numbers are the shipped traced
// logs' (examples/traced, docs/tracing.md) or follow from them by hand.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include <nlohmann/json.hpp>

#include "file_support.h"

using nlohmann::json;
namespace fs = std::filesystem;

using memsim::test::fresh_dir;
using memsim::test::Outcome;
using memsim::test::read_file;
using memsim::test::run_memsim;

namespace {

// MobileNetV2 b8's live-bytes peak with no policy (docs/tracing.md: 130.3 MiB).
constexpr std::uint64_t kMobilenetPeak = 136636200;

json summary_in(const fs::path& dir) { return json::parse(read_file(dir / "summary.json")); }

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
}

}  // namespace

TEST_CASE("first hour: --set platform=FILE keeps the scenario's budget and says so and run and sweep agree") {
    const fs::path dir = fresh_dir("platform_file");
    const Outcome run = run_memsim("run scenarios/traced_budget.yaml --set platform=configs/nvme_datacenter.yaml --out " +
                                   (dir / "run").string());
    INFO(run.out << run.err);
    REQUIRE(run.code == 0);
    const json s = summary_in(dir / "run");
    // 70% of the peak, not the file's 40 GB: floor(0.7 x 136636200) = 95645340.
    CHECK(s["budget_ratio"] == 0.7);
    CHECK(s["budget_base_bytes"] == kMobilenetPeak);
    CHECK(s["budget_bytes"] == 95645340);
    CHECK(s["scenario_resolved"]["platform"]["name"] == "nvme_datacenter");
    CHECK_FALSE(s["scenario_resolved"]["platform"]["memory"].contains("budget"));
    CHECK_THAT(run.out, Catch::Contains("note       the budget_ratio 0.7 is the scenario's (scenarios/traced_budget.yaml): "
                                        "'platform=configs/nvme_datacenter.yaml' names no budget; "
                                        "configs/nvme_datacenter.yaml's budget 40GB is not used "
                                        "(--set platform.memory.budget=40GB uses it)"));
    CHECK_THAT(run.out, Catch::Contains("disk       write 3200.0 MB/s, read 3200.0 MB/s"));

    // The same --set on sweep: no "not both" error, and the point with the run's policy
    // and budget gives the run's answer bit for bit.
    const Outcome sweep = run_memsim("sweep scenarios/traced_budget.yaml --set platform=configs/nvme_datacenter.yaml -j 2 --out " +
                                     (dir / "sweep").string());
    INFO(sweep.out << sweep.err);
    REQUIRE(sweep.code == 0);
    // Point 9: the second policy (the scenario's own: os, dtr semantics, dtr) at 0.7.
    const json point = summary_in(dir / "sweep" / "points" / "0009");
    CHECK(point["scenario_resolved"]["platform"]["memory"]["budget_ratio"] == 0.7);
    CHECK(point["budget_bytes"] == s["budget_bytes"]);
    CHECK(point["time_ms"] == s["time_ms"]);
    CHECK(point["peak_bytes"] == s["peak_bytes"]);
}

TEST_CASE("first hour: a --set of budget replaces the scenario's budget_ratio and the later of the two wins and null unsets") {
    const fs::path dir = fresh_dir("exclusive_budget");
    const Outcome o = run_memsim("run scenarios/traced_budget.yaml --set platform.memory.budget=30MiB --out " + (dir / "a").string());
    INFO(o.out << o.err);
    REQUIRE(o.code == 2);  // 30 MiB is below what MobileNetV2 b8 can run in (see the floor below)
    const json a = summary_in(dir / "a");
    CHECK(a["budget_bytes"] == 31457280);
    CHECK(a["budget_ratio"].is_null());
    CHECK_FALSE(a["scenario_resolved"]["platform"]["memory"].contains("budget_ratio"));
    CHECK_THAT(o.out, Catch::Contains("budget     30.00 MiB\nnote       'platform.memory.budget=30MiB' replaces the "
                                      "budget_ratio 0.7 of scenarios/traced_budget.yaml"));

    // Both, in either order: the later applies and the earlier is said to have no effect.
    const Outcome both = run_memsim("run scenarios/traced_budget.yaml --set platform.memory.budget=30MiB "
                                    "--set platform.memory.budget_ratio=0.8 --out " + (dir / "b").string());
    INFO(both.out << both.err);
    REQUIRE(both.code == 0);
    const json b = summary_in(dir / "b");
    CHECK(b["budget_ratio"] == 0.8);
    CHECK(b["budget_bytes"] == 109308960);  // floor(0.8 x 136636200)
    CHECK_THAT(both.err, Catch::Contains("--set 'platform.memory.budget=30MiB' has no effect: "
                                         "'platform.memory.budget_ratio=0.8'"));

    // KEY=null removes the key: no budget, so no recomputation either.
    const Outcome none = run_memsim("run scenarios/traced_budget.yaml --set platform.memory.budget_ratio=null "
                                    "--set policy.recompute=null --out " + (dir / "c").string());
    INFO(none.out << none.err);
    REQUIRE(none.code == 0);
    const json c = summary_in(dir / "c");
    CHECK(c["budget_bytes"].is_null());
    CHECK(c["peak_bytes"] == kMobilenetPeak);
    CHECK(c["overhead"] == 1.0);

    // A whole memory section without a budget keeps the scenario's.
    const Outcome memory = run_memsim("run scenarios/traced_budget.yaml --set 'platform.memory={allow_ratio_above_one: true}' "
                                      "--out " + (dir / "d").string());
    INFO(memory.out << memory.err);
    REQUIRE(memory.code == 0);
    CHECK(summary_in(dir / "d")["budget_bytes"] == 95645340);
    CHECK_THAT(memory.out, Catch::Contains("note       the budget_ratio 0.7 is kept"));
}

TEST_CASE("first hour: sweep says once that a --set the sweep's values replace has no effect") {
    const fs::path dir = fresh_dir("sweep_inert");
    // budget_tradeoff sweeps whole policies, each with allocator os, and budget ratios.
    const Outcome o = run_memsim("sweep scenarios/budget_tradeoff.yaml --set policy.allocator=pool "
                                 "--set platform.memory.budget=100MiB --set platform.disk.bandwidth=1GB/s --emit-jobs " +
                                 dir.string());
    INFO(o.out << o.err);
    REQUIRE(o.code == 0);
    CHECK_THAT(o.err, Catch::Contains("--set 'policy.allocator=pool' has no effect: the sweep sets policy at every point"));
    CHECK_THAT(o.err, Catch::Contains("--set 'platform.memory.budget=100MiB' has no effect: the sweep sets "
                                      "platform.memory.budget_ratio at every point"));
    CHECK_THAT(o.err, !Catch::Contains("platform.disk.bandwidth=1GB/s' has no effect"));
}

TEST_CASE("first hour: --set workload.dtr_log on a profile scenario replaces the profile and its batch") {
    const fs::path dir = fresh_dir("exclusive_workload");
    const Outcome o = run_memsim("run scenarios/example.yaml --set workload.dtr_log=examples/traced/resnet18_b2.log --out " +
                                 dir.string());
    INFO(o.out << o.err);
    REQUIRE(o.code == 0);
    const json s = summary_in(dir);
    CHECK(s["ops"] == 414);  // examples/traced/resnet18_b2.log
    const json workload = s["scenario_resolved"]["workload"];
    CHECK(workload.size() == 1);
    CHECK(workload.contains("dtr_log"));
    CHECK_THAT(o.out, Catch::Contains("note       'workload.dtr_log=examples/traced/resnet18_b2.log' replaces the profile "
                                      "examples/mlp and its batch 4"));
}

TEST_CASE("first hour: headers say what applied: a changed disk and no prefetch for sync and no overhead when stopped") {
    const fs::path dir = fresh_dir("headers");
    const Outcome sync = run_memsim("run scenarios/swap_modes.yaml --set policy.swap.mode=sync --set platform.disk.bandwidth=3.2GB/s "
                                    "--out " + (dir / "sync").string());
    INFO(sync.out << sync.err);
    REQUIRE(sync.code == 0);
    CHECK_THAT(sync.out, Catch::Contains("swap       sync, selection budget\n"));
    // The scenario's prefetch is for its sweep's async point, not a setting this run ignores.
    CHECK_THAT(sync.err, !Catch::Contains("policy.swap.prefetch"));
    CHECK_THAT(sync.out, Catch::Contains("platform   phone\nnote       phone as changed by platform.disk.bandwidth=3.2GB/s\n"));

    // ResNet-18 b2 at 50%: out of memory (scenarios/traced_budget.yaml's description).
    const Outcome oom = run_memsim("run scenarios/traced_resnet18_b2.yaml --set platform.memory.budget_ratio=0.5 --set output.gantt=true --out " +
                                   (dir / "oom").string());
    INFO(oom.out << oom.err);
    REQUIRE(oom.code == 2);
    CHECK_THAT(oom.out, Catch::Contains("time       stopped (oom) at "));
    CHECK_THAT(oom.out, !Catch::Contains("overhead 0.") && !Catch::Contains("x of "));
    // The Gantt chart's summary line too.
    const std::string page = read_file(dir / "oom" / "gantt.html");
    CHECK_THAT(page, Catch::Contains("<span>stopped at <b>") && Catch::Contains(" ms (no iteration time, no overhead)</b>"));
    CHECK_THAT(page, !Catch::Contains("<span>overhead <b>"));
    // What no policy can go below: the log's constants are 48000848 B (memsim info), 36%
    // of its 132175096 B peak (126.05 MiB).
    CHECK_THAT(oom.err, Catch::Contains("memsim: warning: constants (weights, inputs: tensors no eviction moves; a swap by role can, policy.swap.select: roles) are 36% of "
                                        "the no-policy peak (45.78 MiB of 126.05 MiB); with operator ") &&
                            Catch::Contains("no policy that keeps them on the GPU can go below "));

    // A DTR log has no batch: info says none rather than 0.
    const Outcome info = run_memsim("info --dtr-log examples/traced/resnet18_b2.log --json");
    REQUIRE(info.code == 0);
    const json facts = json::parse(info.out);
    CHECK_FALSE(facts.contains("batch"));
    CHECK(facts["constant_bytes"] == 48000848);
}

TEST_CASE("first hour: the Gantt chart names a tensor's operator and says what a '$' name is") {
    const fs::path dir = fresh_dir("gantt_names");
    const Outcome o = run_memsim("run scenarios/swap_modes.yaml --out " + dir.string());
    REQUIRE(o.code == 0);
    const std::string page = read_file(dir / "gantt.html");
    // MobileNetV2's batch norms update their running statistics in place (MUTATE): the
    // log's x319 becomes x319$.
    CHECK(std::regex_search(page, std::regex(R"("x\d+\$ \(x\d+ as op \d+ [a-z_]+ changed it in place\))")));
    CHECK(std::regex_search(page, std::regex(R"("x\d+ \(output of op \d+ [a-z_]+\))")));
}

TEST_CASE("first hour: memsim sweep prints one row per point (status time overhead peak stall) and --quiet leaves it out") {
    const fs::path dir = fresh_dir("sweep_table");
    const Outcome o = run_memsim("sweep scenarios/disk_speed_whatif.yaml -j 2 --out " + (dir / "a").string());
    INFO(o.out << o.err);
    REQUIRE(o.code == 0);
    const std::vector<std::string> lines = lines_of(o.out);
    REQUIRE(lines.size() > 10);
    CHECK(lines[0] == "  point platform.disk.bandwidth status time_ms   overhead peak      stall_ms");
    // The scenario's description: 5.0x at 5 MB/s, 1.26x on the phone's 23.4 MB/s, 1.000x from 50 MB/s on.
    CHECK_THAT(lines[1], Catch::StartsWith("  0001  5 MB/s                  ok     22931.921 4.989x   78.18 MiB 18335.682"));
    CHECK_THAT(lines[3], Catch::StartsWith("  0003  23.4 MB/s               ok     5772.344  1.256x"));
    for (int i = 4; i <= 9; ++i) CHECK_THAT(lines[static_cast<std::size_t>(i)], Catch::Contains(" 1.000x "));
    CHECK_THAT(o.out, Catch::Contains("9 points: 9 ok, 0 failed"));

    const Outcome quiet = run_memsim("sweep scenarios/disk_speed_whatif.yaml -j 2 --quiet --out " + (dir / "b").string());
    REQUIRE(quiet.code == 0);
    CHECK(quiet.out == "9 points: 9 ok, 0 failed (any status but ok; see results.csv)\n");
    // merge prints the same table from the folder.
    const Outcome merge = run_memsim("merge " + (dir / "a").string());
    REQUIRE(merge.code == 0);
    CHECK(lines_of(merge.out)[1] == lines[1]);
}

TEST_CASE("first hour: a failed sweep point has no time in the table") {
    const fs::path dir = fresh_dir("sweep_table_oom");
    // ResNet-18 b2, swapping: out of memory below 90% (scenarios/traced_budget.yaml).
    const Outcome o = run_memsim("sweep scenarios/traced_budget.yaml --set workload.dtr_log=examples/traced/resnet18_b2.log "
                                 "-j 2 --out " + dir.string());
    INFO(o.out << o.err);
    REQUIRE(o.code == 0);
    const std::vector<std::string> lines = lines_of(o.out);
    REQUIRE(lines.size() > 2);
    CHECK(std::regex_match(lines[1], std::regex(R"(  0001  mode=async select=budget +0\.5 +oom +- +- +[0-9.]+ MiB +-)")));
    CHECK_THAT(o.out, Catch::Contains("a point that did not finish (every status but ok) has no time; its message is in results.csv"));
}

TEST_CASE("first hour: a batch the profile was not measured at points to costs: linear_fit and says what it does") {
    const Outcome o = run_memsim("run scenarios/example.yaml --set workload.batch=3");
    CHECK(o.code == 1);
    CHECK_THAT(o.err, Catch::Contains("the profile has no batch 3 (batches measured: 1 2 4 8); workload.costs: linear_fit fits "
                                      "operator times to a batch whose tensor sizes were measured"));
}

TEST_CASE("first hour: --set workload.profile on a log scenario says how to give the batch and then replaces the log") {
    const Outcome missing = run_memsim("run scenarios/traced_budget.yaml --set workload.profile=examples/mlp");
    CHECK(missing.code == 1);
    CHECK_THAT(missing.err, Catch::Contains("workload.batch: missing (the profile's batch size: add --set workload.batch=N, or "
                                            "set both at once: --set 'workload={profile: DIR, batch: N}')"));
    const fs::path dir = fresh_dir("exclusive_profile");
    const Outcome o = run_memsim("run scenarios/traced_budget.yaml --set workload.profile=examples/mlp --set workload.batch=4 "
                                 "--out " + dir.string());
    INFO(o.out << o.err);
    CHECK(summary_in(dir)["ops"] == 59);  // examples/mlp at batch 4, as scenarios/example.yaml runs it
    CHECK_THAT(o.out, Catch::Contains("note       'workload.profile=examples/mlp' replaces the dtr_log "
                                      "examples/traced/mobilenet_v2_b8.log"));
}

TEST_CASE("first hour: find's table gives a point that stopped no time, as the sweep table does") {
    const fs::path dir = fresh_dir("find_table_oom");
    // ResNet-18 b2 swapping runs out of memory at 50% (0.5 of 126.05 MiB; the floor is 51%).
    const Outcome o = run_memsim("find scenarios/traced_budget.yaml --set workload.dtr_log=examples/traced/resnet18_b2.log "
                                 "--minimize platform.memory.budget_ratio --range 0.5..1.0 --while 'status == ok' -j 2 --out " +
                                 dir.string());
    INFO(o.out << o.err);
    REQUIRE(o.code == 0);
    const std::vector<std::string> lines = lines_of(o.out);
    REQUIRE(lines.size() > 3);
    CHECK(std::regex_match(lines[2], std::regex(R"(  0\.5 +no +oom +- +[0-9.]+ MiB)")));
    CHECK(std::regex_match(lines[3], std::regex(R"(  \S+ +(no +oom +- |yes +ok +[0-9]+\.[0-9]{3}) +[0-9.]+ MiB)")));
    CHECK_THAT(o.out, Catch::Contains("a point that did not finish (every status but ok) has no time; its message is in results.csv"));
}

TEST_CASE("first hour: compare says once why every policy stopped when the reason is the same") {
    const fs::path dir = fresh_dir("compare_same_reason");
    // A 3-layer MLP at batch 32 in 60% of its peak: the budget is below one operator's
    // working set, which no policy can change.
    std::ofstream(dir / "mlp.yaml") << "name: mlp3\n"
                                       "workload: {synthetic: mlp, layers: 3, batch: 32}\n"
                                       "platform: {memory: {budget_ratio: 0.6}}\n"
                                       "policy: {allocator: os}\n";
    const Outcome o = run_memsim("compare " + (dir / "mlp.yaml").string() + " -j 2 --out " + (dir / "out").string());
    INFO(o.out << o.err);
    REQUIRE(o.code == 0);
    const std::string reason = "is below the working set of operator ";
    CHECK(std::regex_search(o.out, std::regex(R"(\nevery policy \(17\): memsim: error: .*platform\.memory\.budget_ratio: the budget )")));
    std::size_t said = 0;
    for (std::size_t at = o.out.find(reason); at != std::string::npos; at = o.out.find(reason, at + 1)) ++said;
    CHECK(said == 1);
}

TEST_CASE("first hour: --set workload.torch_snapshot on a profile scenario replaces the profile and its batch") {
    const fs::path dir = fresh_dir("exclusive_snapshot");
    // A snapshot to read: ResNet-18 b2 under PyTorch's caching allocator (README).
    const Outcome made = run_memsim("run scenarios/traced_resnet18_b2.yaml --set policy.allocator=torch_caching "
                                    "--set output.torch_snapshot=true --out " + (dir / "snap").string());
    INFO(made.out << made.err);
    REQUIRE(made.code == 0);
    const fs::path snapshot = dir / "snap" / "memory_snapshot.pickle";
    REQUIRE(fs::exists(snapshot));
    const Outcome o = run_memsim("run scenarios/example.yaml --set workload.torch_snapshot=" + snapshot.string() + " --out " +
                                 (dir / "run").string());
    INFO(o.out << o.err);
    REQUIRE(o.code == 0);
    const json workload = summary_in(dir / "run")["scenario_resolved"]["workload"];
    CHECK(workload.size() == 1);
    CHECK(workload.contains("torch_snapshot"));
    CHECK_THAT(o.out, Catch::Contains("note       'workload.torch_snapshot=" + snapshot.string() +
                                      "' replaces the profile examples/mlp and its batch 4"));
}
