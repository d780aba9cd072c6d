// Issue 41, classes 3, 4, 9 and 10 (the messages outside XML): every status memsim writes
// is read back; compare keeps what it does not vary; answers claim no more than memsim
// knows; values are cut in messages; snapshots that contradict themselves are refused.
#include <catch2/catch.hpp>

#include <filesystem>
#include <map>

#include <nlohmann/json.hpp>

#include "hostile_support.h"
#include "models/alloc/torch_alloc_conf.h"
#include "models/io/memory_snapshot.h"
#include "models/swap/swap_warnings.h"
#include "models/workload/input_error.h"
#include "models/workload/torch_snapshot.h"
#include "sim/engine/run_status.h"
#include "sim/app/compare/policy_candidates.h"
#include "sim/engine/summary.h"
#include "sim/scenario/scenario.h"

using namespace memsim;
using namespace memsim::test;
namespace fs = std::filesystem;

namespace {

SnapshotTraceEntry entry(const char* action, std::uint64_t addr, std::uint64_t size, std::optional<std::int64_t> time_us = {}) {
    SnapshotTraceEntry e;
    e.action = action;
    e.addr = addr;
    e.size = size;
    e.time_us = time_us;
    return e;
}

MemorySnapshot snapshot_of(std::vector<SnapshotTraceEntry> trace) {
    MemorySnapshot s;
    s.device_traces.push_back(std::move(trace));
    return s;
}

}  // namespace

TEST_CASE("hostile statuses: one table, owned by the engine, says what each status means") {
    CHECK(run_status_names() == "ok, oom, thrash, host_full, infeasible, unsolved, error");
    CHECK(status_finished("ok"));
    for (const char* stopped : {"oom", "thrash", "host_full", "infeasible", "unsolved", "error"}) {
        INFO(stopped);
        CHECK(find_run_status(stopped));
        CHECK_FALSE(status_finished(stopped));
    }
    CHECK(status_simulated("host_full"));
    CHECK_FALSE(status_simulated("infeasible"));
    CHECK_FALSE(find_run_status("fine"));
}

TEST_CASE("hostile statuses: a stopped run's summary has overhead null and its stop time as stopped_at_ms") {
    Summary s;
    s.status = "oom";
    s.time_ms = 12.5;
    s.stopped_at_ms = 12.5;
    s.overhead = 0.25;  // whatever the run computed: a stop time is no iteration time
    const nlohmann::json j = to_json(s);
    CHECK(j["overhead"].is_null());
    CHECK(j["stopped_at_ms"] == 12.5);
    s.status = "ok";
    s.stopped_at_ms.reset();
    const nlohmann::json ok = to_json(s);
    CHECK(ok["overhead"] == 0.25);
    CHECK_FALSE(ok.contains("stopped_at_ms"));
}

TEST_CASE("hostile messages: an allocator configuration of megabytes is quoted cut short") {
    const std::string huge(2 * 1024 * 1024, '7');
    try {
        (void)parse_torch_alloc_conf("max_split_size_mb:" + huge);
        FAIL("accepted");
    } catch (const std::invalid_argument& e) {
        const std::string what = e.what();
        CHECK(what.size() < 300);
        CHECK_THAT(what, Catch::StartsWith("max_split_size_mb: '" + std::string(117, '7') + "...' is out of range"));
    }
    const fs::path dir = fresh_dir("long_conf");
    const std::string scenario = write_text(dir / "s.yaml", "workload: {synthetic: mlp}\npolicy: {allocator: torch_caching, "
                                                            "torch_alloc_conf: 'unknown_" + std::string(100000, 'x') + ":1'}\n");
    const Outcome o = run_memsim("run " + scenario + " --out " + (dir / "out").string());
    CHECK(o.code == 1);
    CHECK(o.err.size() < 1000);
    CHECK_THAT(o.err, Catch::Contains("policy.torch_alloc_conf: 'unknown_xxx") && Catch::Contains("...': unknown option 'unknown_x"));
    // The same through info's --torch-alloc-conf.
    MemorySnapshot snapshot;
    snapshot.device_traces.push_back({entry("alloc", 0x1000, 512)});
    const std::string pickle = write_text(dir / "s.pickle", write_memory_snapshot(snapshot));
    const Outcome info = run_memsim("info --torch-snapshot " + pickle + " --torch-alloc-conf max_split_size_mb:" + std::string(100000, '9'));
    CHECK(info.code == 1);
    CHECK(info.err.size() < 1000);
    CHECK_THAT(info.err, Catch::Contains("--torch-alloc-conf 'max_split_size_mb:999") && Catch::Contains("...' is out of range"));
}

TEST_CASE("hostile messages: a memory snapshot whose live blocks overlap is refused naming both") {
    // 0x1000 + 512 B runs to 0x1200: an alloc at 0x1100 lands inside it.
    const auto s = snapshot_of({entry("alloc", 0x1000, 512), entry("alloc", 0x1100, 16)});
    CHECK_THROWS_WITH(snapshot_workload(s, "snap.pickle"),
                      "snap.pickle: device_traces[0][1]: alloc of 16 B at 0x1100 overlaps the live block of 512 B at 0x1000 "
                      "(allocated at [0] and not freed)");
    // Below a live block and reaching into it.
    const auto below = snapshot_of({entry("alloc", 0x1000, 512), entry("alloc", 0xF00, 0x101)});
    CHECK_THROWS_WITH(snapshot_workload(below, "snap.pickle"), Catch::Contains("alloc of 257 B at 0xf00 overlaps the live block of "
                                                                               "512 B at 0x1000"));
    // Touching is not overlapping; a freed block's range is free again.
    const auto touching = snapshot_of({entry("alloc", 0x1000, 512), entry("alloc", 0x1200, 16), entry("alloc", 0xF00, 0x100),
                                       entry("free_completed", 0x1000, 512), entry("alloc", 0x1100, 16)});
    CHECK(snapshot_workload(touching, "snap.pickle").workload.ops.size() == 4);
    // A block from before the trace (freed, never allocated in it) may not overlap a live one.
    const auto old = snapshot_of({entry("alloc", 0x1000, 512), entry("free_completed", 0x0F80, 0x100)});
    CHECK_THROWS_WITH(snapshot_workload(old, "snap.pickle"),
                      Catch::Contains("device_traces[0][1]: free_completed of 256 B at 0xf80, a block from before the trace, "
                                      "overlaps the live block of 512 B at 0x1000 (allocated at [0])"));
}

TEST_CASE("hostile messages: a memory snapshot that frees another size than it allocated is refused") {
    const auto s = snapshot_of({entry("alloc", 0x1000, 512), entry("free_completed", 0x1000, 256)});
    CHECK_THROWS_WITH(snapshot_workload(s, "snap.pickle"),
                      "snap.pickle: device_traces[0][1]: free_completed of 256 B at 0x1000, which was allocated with 512 B at [0]");
}

TEST_CASE("hostile messages: a memory snapshot with a negative time is refused") {
    const std::string bytes = write_memory_snapshot(snapshot_of({entry("alloc", 0x1000, 512, 5), entry("alloc", 0x2000, 16, -3)}));
    CHECK_THROWS_WITH(parse_memory_snapshot(bytes, "snap.pickle"),
                      Catch::Contains("device_traces[0][1].time_us") && Catch::Contains("-3 is negative"));
    const std::string fine = write_memory_snapshot(snapshot_of({entry("alloc", 0x1000, 512, 5), entry("alloc", 0x2000, 16, 0)}));
    CHECK(parse_memory_snapshot(fine, "snap.pickle").device_traces.at(0).size() == 2);
}

TEST_CASE("hostile claims: a cancelled swap-out names where it was going") {
    SwapWarningInputs in;
    in.swaps = true;
    in.swapped_tensors = 4;
    in.cancelled_writes = 3;
    in.live_peak_bytes = 1;  // swapping saved memory: the cancelled writes are the only warning
    in.no_swap_live_peak_bytes = 2;
    CHECK(swap_warnings(in).at(0) == "3 of 4 swap-outs were cancelled: their tensors were needed before the disk wrote them");
    in.written = "they reached host RAM";
    CHECK(swap_warnings(in).at(0) == "3 of 4 swap-outs were cancelled: their tensors were needed before they reached host RAM");
}

TEST_CASE("hostile claims: the run's table names fragmentation_bytes for what it is, beside the peaks' difference") {
    Summary s;
    s.caching = CachingFigures{};
    s.caching->allocated_peak_bytes = 1000;
    s.caching->reserved_peak_bytes = 1200;
    s.caching->fragmentation_bytes = 700;  // reserved 1200, allocated 500 at the first reserved peak
    s.caching->segment_count = 3;
    s.caching->segment_allocations = 5;
    const std::string table = to_table(s);
    CHECK_THAT(table, Catch::Contains("allocated peak 1000 B   reserved peak 1200 B (peaks differ by 200 B)   cached free 700 B "
                                      "(0.001 MiB) in 3 segments when the reserved peak was first reached   5 segment allocations"));
    CHECK_THAT(table, !Catch::Contains("fragmentation"));
}

TEST_CASE("hostile compare: candidates keep the scenario's placement, path, max_overhead and the planner's time_limit") {
    const Scenario base = parse_scenario(
        "workload: {synthetic: mlp}\n"
        "platform: {host: {link: {bandwidth: 25GB/s}, memory: 1GiB}, memory: {budget_ratio: 0.6}}\n"
        "policy: {allocator: pool, swap: {placement: host, path: direct}, recompute: {planner: optimal, time_limit: 2s, "
        "max_overhead: 50}}\n",
        "test");
    std::map<std::string, std::string> policy;  // label -> the policy it runs
    for (const PolicyCandidate& c : policy_candidates(base, {})) policy[c.label] = flow_yaml(c.policy);
    CHECK(policy.at("no policy") == "{allocator: pool, swap: {placement: host, path: direct}, recompute: {max_overhead: 50}}");
    CHECK(policy.at("swap sync (budget)") ==
          "{allocator: pool, swap: {placement: host, path: direct, mode: sync, select: budget}, recompute: {max_overhead: 50}}");
    CHECK(policy.at("recompute planner optimal") ==
          "{allocator: pool, swap: {placement: host, path: direct}, recompute: {planner: optimal, time_limit: 2s, max_overhead: 50}}");
    // Another planner takes neither the optimal planner's time_limit nor its name.
    CHECK(policy.at("recompute planner msps_on_demand") ==
          "{allocator: pool, swap: {placement: host, path: direct}, recompute: {max_overhead: 50, planner: msps_on_demand}}");
    CHECK(policy.at("recompute dtr") ==
          "{allocator: pool, swap: {placement: host, path: direct}, recompute: {max_overhead: 50, heuristic: dtr}}");
    // The nested form keeps its parameters too.
    const Scenario nested = parse_scenario(
        "workload: {synthetic: mlp}\nplatform: {memory: {budget_ratio: 0.6}}\n"
        "policy: {recompute: {planner: {optimal: {time_limit: 3s}}}}\n",
        "test");
    for (const PolicyCandidate& c : policy_candidates(nested, {"optimal", "capuchin"}))
        CHECK(flow_yaml(c.policy) == (c.family == "optimal" ? "{recompute: {planner: {optimal: {time_limit: 3s}}}}"
                                                             : "{recompute: {planner: capuchin}}"));
}

namespace {

// ResNet-18 b2 (live peak 132175096 B) on a node with 1 MiB of host RAM: at 0.4 of the
// peak its 48000848 B of constants leave the optimal planner no plan (infeasible); at 0.7
// async swapping to host RAM stops at op 3, whose 6422528 B tensor x124 cannot fit (host_full).
constexpr const char* kStatusesScenario =
    "name: statuses\n"
    "workload: {dtr_log: examples/traced/resnet18_b2.log}\n"
    "platform: {host: {link: {bandwidth: 25GB/s}, memory: 1MiB}, memory: {budget_ratio: 0.7}}\n"
    "policy: {swap: {mode: async, placement: host}}\n";

}  // namespace

TEST_CASE("hostile statuses: a sweep whose points end host_full and infeasible reads them back with time and message") {
    const fs::path dir = fresh_dir("statuses_sweep");
    const std::string file = write_text(dir / "s.yaml", std::string(kStatusesScenario) +
                                                            "sweep:\n  policy: [{swap: {mode: async, placement: host}}, "
                                                            "{recompute: {planner: optimal}}]\n"
                                                            "  platform.memory.budget_ratio: [0.4, 0.7]\n");
    const Outcome o = run_memsim("sweep " + file + " --out " + (dir / "out").string());
    REQUIRE(o.code == 0);
    CHECK_THAT(o.out, !Catch::Contains("unreadable"));
    CHECK_THAT(o.out, Catch::Contains("  0002  mode=async placement=host 0.7                          host_full  -"));
    CHECK_THAT(o.out, Catch::Contains("  0003  planner=optimal           0.4                          infeasible -"));
    const std::string csv = read_file(dir / "out" / "results.csv");
    // The row keeps its message and its clock: time_ms 88.112026 (the stop), overhead empty.
    CHECK_THAT(csv, Catch::Contains("\n0002,\"{swap: {mode: async, placement: host}}\",0.7,host_full,\"op 3: tensor x124 "
                                    "(6422528 B) does not fit in host RAM: host RAM holds 0 B of 1048576 B: 0 B of swapped "
                                    "tensors, 0 B of bounce buffers\",88.112026,,60846416,"));
    CHECK_THAT(csv, Catch::Contains("\n0003,{recompute: {planner: optimal}},0.4,infeasible,\"optimal: infeasible: no plan fits "
                                    "the budget of 52870038 B: op 0 'convolution' needs 54423376 B while it runs"));
    const nlohmann::json stopped = nlohmann::json::parse(read_file(dir / "out" / "points" / "0002" / "summary.json"));
    CHECK(stopped["stopped_at_ms"] == 88.112026);
    CHECK(stopped["overhead"].is_null());
    const nlohmann::json planned = nlohmann::json::parse(read_file(dir / "out" / "points" / "0003" / "summary.json"));
    CHECK_FALSE(planned.contains("stopped_at_ms"));  // nothing ran
    CHECK(planned["overhead"].is_null());
    // merge reads the folder back to the same bytes.
    const Outcome merged = run_memsim("merge " + (dir / "out").string());
    CHECK(merged.code == 0);
    CHECK(read_file(dir / "out" / "results.csv") == csv);
}

TEST_CASE("hostile statuses: find --until 'status == host_full' finds a host_full point") {
    const fs::path dir = fresh_dir("statuses_find");
    const std::string file = write_text(dir / "s.yaml", kStatusesScenario);
    const Outcome o = run_memsim("find " + file + " --vary platform.memory.budget_ratio --range 0.4..0.8 --until "
                                 "'status == host_full' --grid 5 --out " + (dir / "out").string());
    REQUIRE(o.code == 0);
    // Below about 0.46 the constants and op 0 do not fit the device: oom, not host_full.
    CHECK_THAT(o.out, Catch::Contains("answer: platform.memory.budget_ratio = 0.462963 (holds there, fails at 0.45926"));
    CHECK_THAT(o.out, Catch::Contains("  0.8                          yes   host_full -"));
}

TEST_CASE("hostile compare: a node scenario with placement host and a time_limit keeps both in its runs") {
    const fs::path dir = fresh_dir("compare_keeps");
    const std::string file =
        write_text(dir / "s.yaml", "name: keep\nworkload: {dtr_log: examples/traced/resnet18_b2.log}\n"
                                   "platform: {host: {link: {bandwidth: 25GB/s}, memory: 1GiB}, memory: {budget_ratio: 0.7}}\n"
                                   "policy: {swap: {placement: host}, recompute: {planner: optimal, time_limit: 2s}}\n");
    const Outcome o = run_memsim("compare " + file + " --policies sync,optimal --out " + (dir / "out").string());
    REQUIRE(o.code == 0);
    const auto summary = [&](const char* point) {
        return nlohmann::json::parse(read_file(dir / "out" / "points" / point / "summary.json"));
    };
    const nlohmann::json sync = summary("0001"), optimal = summary("0002");
    // Sync swaps to host RAM, as the scenario places swaps, never to the disk.
    CHECK(sync["scenario_resolved"]["policy"] == nlohmann::json::parse(R"({"swap": {"mode": "sync", "placement": "host", "select": "budget"}})"));
    CHECK(sync["bytes_to_disk"] == 0);
    CHECK(sync["bytes_to_host"] == 49635232);  // storages read later through views go too (docs/workloads.md)
    // The optimal row runs with the scenario's 2 s for CBC.
    CHECK(optimal["scenario_resolved"]["policy"]["recompute"] == nlohmann::json::parse(R"({"planner": "optimal", "time_limit": "2s"})"));
    // 414 operators: the best candidate, not a proven optimum, so every run is measured
    // against the bound (3146.093 ms, the compute time): 8819.390 / 3146.093 = 2.803.
    CHECK_THAT(o.out, Catch::Contains("optimal planner: best known plan (optimum not proven, bound 3146.093 ms, gap 64.33%)"));
    CHECK_THAT(o.out, Catch::Contains("\noptimal: +180.3% over the bound\n"));
    CHECK_THAT(o.out, !Catch::Contains("over optimal"));
}

TEST_CASE("hostile claims: a planner under torch_caching says that its plan ignores the allocator") {
    const fs::path dir = fresh_dir("claims_torch_caching");
    const std::string file = write_text(dir / "s.yaml", "name: tc\nworkload: {dtr_log: examples/traced/mobilenet_v2_b8.log}\n"
                                                        "platform: {memory: {budget_ratio: 0.9}}\n"
                                                        "policy: {allocator: torch_caching, recompute: {planner: msps_on_demand}}\n");
    const Outcome o = run_memsim("run " + file + " --out " + (dir / "out").string());
    REQUIRE(o.code == 2);  // a run that stopped
    const nlohmann::json s = nlohmann::json::parse(read_file(dir / "out" / "summary.json"));
    REQUIRE(s["status"] == "oom");  // at op 70, the plan counting live bytes only (docs/torch_allocator.md)
    CHECK(s["overhead"].is_null());
    CHECK(s["stopped_at_ms"] == s["time_ms"]);
    const std::string warnings = s["warnings"].dump();
    CHECK_THAT(warnings, Catch::Contains("policy.recompute.planner 'msps_on_demand' plans in live bytes (as allocator os): it "
                                         "ignores allocator 'torch_caching' (its rounding and cache)"));
    CHECK_THAT(warnings, Catch::Contains("the budget 117.28 MiB is above it in live bytes, the only bytes the floor counts"));
    CHECK_THAT(warnings, !Catch::Contains("another policy may fit"));
    // The cache's free bytes when reserved first peaked (33725952 B) are not the peaks'
    // difference (121634816 - 88795136 = 32839680 B): the table names both.
    CHECK_THAT(o.out, Catch::Contains("reserved peak 121634816 B (peaks differ by 32839680 B)   cached free 33725952 B (32.164 "
                                      "MiB) in 13 segments when the reserved peak was first reached"));
}

TEST_CASE("hostile compare: an infeasible optimal row is read back with its message, not as unreadable") {
    const fs::path dir = fresh_dir("compare_infeasible");
    const std::string file = write_text(dir / "s.yaml", "name: tight\nworkload: {dtr_log: examples/traced/resnet18_b2.log}\n"
                                                        "platform: {memory: {budget_ratio: 0.4}}\n");
    const Outcome o = run_memsim("compare " + file + " --policies none,optimal --out " + (dir / "out").string());
    REQUIRE(o.code == 0);
    CHECK_THAT(o.out, !Catch::Contains("unreadable"));
    CHECK_THAT(o.out, Catch::Contains("recompute planner optimal infeasible"));
    CHECK_THAT(o.out, Catch::Contains("recompute planner optimal: optimal: infeasible: no plan fits the budget of 52870038 B"));
}

TEST_CASE("hostile claims: the optimal planner's time limit coming first is unsolved, never infeasible") {
    // The synthetic MLP at 0.61 of its peak: no other policy's plan fits and CBC finds none
    // within 20 s here; 1 s proves nothing either way, so the answer may not claim a proof.
    const fs::path dir = fresh_dir("claims_time_limit");
    const std::string file = write_text(dir / "s.yaml", "name: m\nworkload: {synthetic: mlp}\nplatform: {memory: {budget_ratio: "
                                                        "0.61}}\npolicy: {recompute: {planner: optimal, time_limit: 1s}}\n");
    const Outcome o = run_memsim("run " + file + " --out " + (dir / "out").string());
    CHECK(o.code == 2);
    CHECK_THAT(o.out, Catch::Contains("[unsolved]"));
    CHECK_THAT(o.out, Catch::Contains("message    optimal: no plan found: none of the other policies' plans fits the budget, "
                                      "and CBC's time limit of 1 s (CPU) came first"));
}
