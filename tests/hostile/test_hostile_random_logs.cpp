// Issue 31, item 1: random small valid DTR logs under every policy family. Each run goes
// to a forked child (one SimGrid engine per process, and a crash must not take the test
// down); the child checks what every finished run must satisfy. Out of memory, thrash
// and a refused budget (below an operator's working set) are answers; a crash, an
// InvariantError or any other exception is a finding. The two crashes issue 31 reported
// (SwapIo::use_in_place under reference semantics, semi_sync with forward_end 0) were
// found this way; each also has a hand-worked test below.
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "file_support.h"
#include "hostile_support.h"
#include "models/recompute/plan_builder.h"
#include "models/workload/dtr_log.h"
#include "models/workload/input_error.h"
#include "random_dtr_log.h"
#include "sim/engine/engine.h"
#include "sim/app/run/child_process.h"
#include "sim/app/run/run_config.h"
#include "sim/app/run/run_pipeline.h"
#include "sim/app/run/working_set.h"
#include "sim/scenario/scenario.h"
#include "sim/app/run/simulation.h"

using namespace memsim;
using namespace memsim::test;
namespace fs = std::filesystem;

namespace {

const std::vector<std::string> kHeuristics = {"dtr", "dtr_eq", "dtr_local", "msps", "lru", "size", "random", "megengine"};
const std::vector<std::string> kPlanners = {"msps_on_demand", "capuchin", "sublinear"};
const std::vector<std::string> kAllocators = {
    "os", "pool", "planner:naive", "planner:equality", "planner:greedy_in_order", "planner:greedy_by_breadth",
    "planner:greedy_by_size", "planner:greedy_best", "planner:mincostflow", "planner:mincostflow_fast", "planner:mxnet",
    "planner:greedy_by_size_offsets", "planner:peer_heuristic", "planner:peer_heuristic_python", "planner:best_offsets"};

// The policies of one family for log number `seed` (a family with many rows rotates
// through them over the seeds, so every row runs on several logs).
std::vector<std::string> swap_policies() {
    return {"{semantics: reference, swap: {mode: async}}",
            "{semantics: reference, swap: {mode: semi_sync}}",
            "{semantics: reference, swap: {mode: sync}}",
            "{swap: {mode: sync}}",
            "{swap: {mode: semi_sync}}",
            "{swap: {mode: async}}",
            "{swap: {mode: async, prefetch: eager}}",
            "{swap: {mode: async, prefetch: just_in_time}}",
            "{swap: {mode: async, prefetch: {lead_ops: 2}}}",
            "{swap: {mode: async, prefetch: {lead_ms: 1ms}}}",
            "{swap: {mode: async, select: budget}}",
            "{swap: {mode: sync, select: fixed_buffer}}",
            "{swap: {mode: semi_sync, select: hideable}}"};
}

std::vector<std::string> recompute_policies(int seed) {
    const auto pick = [&](const std::vector<std::string>& rows, int k) { return rows[static_cast<std::size_t>(seed + k) % rows.size()]; };
    return {fmt::format("{{semantics: dtr, recompute: {{heuristic: {}}}}}", pick(kHeuristics, 0)),
            fmt::format("{{recompute: {{heuristic: {}}}}}", pick(kHeuristics, 3)),
            fmt::format("{{recompute: {{planner: {}}}}}", pick(kPlanners, 0)),
            fmt::format("{{swap: {{mode: async, select: fixed_buffer}}, recompute: {{heuristic: {}}}, hybrid: true}}",
                        pick(kHeuristics, 5)),
            fmt::format("{{allocator: '{}', swap: {{mode: async, select: budget}}}}", pick(kAllocators, 0)),
            // Alone, without a budget: a planner's arena is larger than the live peak.
            fmt::format("{{allocator: '{}'}}", pick(kAllocators, 7))};
}

enum Answer : std::uint64_t { kRefused, kStopped, kFinished };

// What one run must satisfy; throws std::runtime_error saying what broke.
Answer check_run(const Workload& w, const Scenario& s) {
    EngineConfig config;
    try {
        config = resolve_engine_config(s, w);
    } catch (const InputError&) {
        return kRefused;  // e.g. a budget below an operator's working set: refused with a message
    }
    RunResult r;
    try {
        r = simulate(w, s, execution_plan(w, s, config));  // with the measuring runs a real run starts
    } catch (const PlanStopped&) {
        return kStopped;  // the planner gave up: thrash
    }
    const Summary& sm = r.summary;
    const auto broken = [&](const std::string& what) { throw std::runtime_error(what + " (status " + sm.status + ")"); };
    if (sm.status != "ok") {
        if (sm.status != "oom" && sm.status != "thrash") broken("unknown status");
        if (sm.message.empty()) broken("a failed run without a message");
        return kStopped;
    }
    if (!std::isfinite(sm.time_ms) || sm.time_ms < sm.compute_ms * (1 - 1e-9) - 1e-9)
        broken(fmt::format("time {} ms below compute {} ms", sm.time_ms, sm.compute_ms));
    if (std::abs(sm.compute_ms - sm.iteration_compute_ms) > 1e-9 * std::max(1.0, sm.iteration_compute_ms))
        broken(fmt::format("compute {} ms is not the iteration's {} ms", sm.compute_ms, sm.iteration_compute_ms));
    if (config.budget && sm.peak_bytes > *config.budget)
        broken(fmt::format("peak {} B above the budget {} B", sm.peak_bytes, *config.budget));
    if (sm.live_peak_bytes > sm.peak_bytes && sm.allocator != "planner:mxnet")  // mxnet shares in place on purpose
        broken(fmt::format("live peak {} B above the allocator's peak {} B", sm.live_peak_bytes, sm.peak_bytes));
    return kFinished;
}

// Runs every policy on `logs` random logs starting at `first_seed`; returns the failures.
std::vector<std::string> run_family(const std::string& family, int first_seed, int logs) {
    const fs::path dir = fresh_dir("random_logs_" + family);
    std::vector<std::string> failures;
    int runs = 0, finished = 0, refused = 0;
    for (int seed = first_seed; seed < first_seed + logs; ++seed) {
        const std::string path = write_text(dir / fmt::format("{}.log", seed), random_dtr_log(static_cast<std::uint64_t>(seed)));
        Workload w;
        try {
            w = load_dtr_log(path);
        } catch (const InputError& e) {
            failures.push_back(fmt::format("seed {}: the generator wrote an invalid log: {}", seed, e.what()));
            continue;
        }
        const std::vector<std::string> policies = family == "swap" ? swap_policies() : recompute_policies(seed);
        for (std::size_t k = 0; k < policies.size(); ++k) {
            // Slow disks keep writes in flight across operators (the in-place paths);
            // budgets from the no-policy peak (never binds) down to 0.6 of it, never
            // below the largest working set (which would only be refused).
            const double ratio = std::vector<double>{1.0, 0.95, 0.8, 0.6}[(seed + k) % 4];
            const auto budget = std::max(largest_working_set(w).bytes,
                                         static_cast<std::uint64_t>(ratio * static_cast<double>(budget_base_bytes(w))));
            const std::string bandwidth = (seed + k) % 2 ? "2000B/s" : "1MB/s";
            const bool allocator_alone = policies[k].find("{allocator") == 0 && policies[k].find("swap") == std::string::npos;
            const std::string memory = allocator_alone ? "" : fmt::format(", memory: {{budget: {}B}}", std::max<std::uint64_t>(budget, 1));
            const std::string yaml = fmt::format("workload: {{dtr_log: '{}'}}\nplatform: {{disk: {{bandwidth: {}}}{}}}\npolicy: {}\n",
                                                 path, bandwidth, memory, policies[k]);
            ++runs;
            Scenario s;
            try {
                s = parse_scenario(yaml, "random.yaml");
            } catch (const InputError& e) {
                failures.push_back(fmt::format("seed {}: {}: scenario refused: {}", seed, policies[k], e.what()));
                continue;
            }
            ChildMeasurement child([&] { return static_cast<std::uint64_t>(check_run(w, s)); }, "a random log run");
            const auto answer = child.result();
            if (answer == kFinished) ++finished;
            if (answer == kRefused) ++refused;
            if (!answer)
                failures.push_back(fmt::format("seed {} ({}), budget_ratio {}, bandwidth {}, policy {}: {}", seed, path,
                                               ratio, bandwidth, policies[k], child.error()));
        }
    }
    // Many runs must reach the end, or the test would check little (the others run out
    // of memory: constants stay resident, and only feature maps are swapped).
    INFO(family << ": " << finished << " of " << runs << " runs finished, " << refused << " refused");
    CHECK(finished * 3 >= runs);
    return failures;
}

}  // namespace

TEST_CASE("hostile random logs: every swap policy on random valid DTR logs runs to an answer") {
    const std::vector<std::string> failures = run_family("swap", 1, 24);
    for (const std::string& f : failures) UNSCOPED_INFO(f);
    CHECK(failures.empty());
}

TEST_CASE("hostile random logs: every recompute policy and allocator on random valid DTR logs runs to an answer") {
    const std::vector<std::string> failures = run_family("recompute", 1001, 30);
    for (const std::string& f : failures) UNSCOPED_INFO(f);
    CHECK(failures.empty());
}

namespace {

Summary run_log(const std::string& name, const std::string& log, const std::string& policy) {
    const std::string path = write_text(fresh_dir("hand_logs") / name, log);
    const Workload w = load_dtr_log(path);
    const Scenario s = parse_scenario(
        fmt::format("workload: {{dtr_log: '{}'}}\nplatform: {{disk: {{bandwidth: 1000B/s}}}}\npolicy: {}\n", path, policy),
        "hand.yaml");
    return simulate(w, s, execution_plan(w, s, resolve_engine_config(s, w))).summary;
}

// s (1000 B) is read by op 3 through its view v. Before storages were planned on, s was
// written out after op 1 (its last use by name) and used in place by op 3 while the write
// was still on the disk; at the end of the forward pass the reference frees every pending
// write, and s, kept, stayed marked "written" without being listed: using it again in op 4
// erased end() of that list. Now s is written after op 3.
const char* const kViewUsedWhileWritten = R"({"INSTRUCTION":"CONSTANT","NAME":"x"}
{"INSTRUCTION":"MEMORY","MEMORY":"100","NAME":"x"}
{"ARGS":["x"],"INSTRUCTION":"CALL","NAME":"conv","RESULT":["s"],"TIME":"1000000"}
{"INSTRUCTION":"MEMORY","MEMORY":"1000","NAME":"s"}
{"ALIAS":"-1","INSTRUCTION":"ALIAS","NAME":"s"}
{"ARGS":["s"],"INSTRUCTION":"CALL","NAME":"view","RESULT":["v"],"TIME":"1000000"}
{"INSTRUCTION":"MEMORY","MEMORY":"1000","NAME":"v"}
{"ALIAS":"0","INSTRUCTION":"ALIAS","NAME":"v"}
{"ARGS":["x"],"INSTRUCTION":"CALL","NAME":"other","RESULT":["o"],"TIME":"1000000"}
{"INSTRUCTION":"MEMORY","MEMORY":"10","NAME":"o"}
{"ALIAS":"-1","INSTRUCTION":"ALIAS","NAME":"o"}
{"ARGS":["v"],"INSTRUCTION":"CALL","NAME":"relu","RESULT":["y"],"TIME":"1000000"}
{"INSTRUCTION":"MEMORY","MEMORY":"10","NAME":"y"}
{"ALIAS":"-1","INSTRUCTION":"ALIAS","NAME":"y"}
{"ANNOTATION":"BACKWARD","INSTRUCTION":"ANNOTATE"}
{"ARGS":["y","s"],"INSTRUCTION":"CALL","NAME":"relu_backward","RESULT":["g"],"TIME":"1000000"}
{"INSTRUCTION":"MEMORY","MEMORY":"10","NAME":"g"}
{"ALIAS":"-1","INSTRUCTION":"ALIAS","NAME":"g"}
{"ARGS":["s","g","o"],"INSTRUCTION":"CALL","NAME":"conv_backward","RESULT":["h"],"TIME":"1000000"}
{"INSTRUCTION":"MEMORY","MEMORY":"10","NAME":"h"}
{"ALIAS":"-1","INSTRUCTION":"ALIAS","NAME":"h"}
)";

}  // namespace

TEST_CASE("hostile random logs: reference async, a storage read through its view is written after that read") {
    // Disk 1000 B/s, ops 1 ms each. op3 (relu) reads s through its view v, so s's last
    // forward use is op3 (docs/workloads.md, "Storages and views"), not op1: nothing is
    // written while a later forward op still reads it. Writes: o (after op 2) 3..13, then
    // after op 3 s 13..1013 and y 1013..1023. Forward ends at 4 ms: o, s and y are freed.
    // Op 4 needs y and s: read 1023..1033 and 1033..2033, runs 2033..2034; o's read (for op
    // 5) queues behind them: 2033..2043; op 5 runs 2043..2044.
    for (const char* budget : {"", ", memory: {budget_ratio: 1}"}) {
        INFO("budget" << budget);
        const std::string path = write_text(fresh_dir("view_in_place") / "view.log", kViewUsedWhileWritten);
        const Workload w = load_dtr_log(path);
        const Scenario s = parse_scenario(fmt::format("workload: {{dtr_log: '{}'}}\nplatform: {{disk: {{bandwidth: 1000B/s}}{}}}\n"
                                                      "policy: {{semantics: reference, swap: {{mode: async}}}}\n",
                                                      path, budget),
                                          "hand.yaml");
        const Summary sm = simulate(w, s, execution_plan(w, s, resolve_engine_config(s, w))).summary;
        REQUIRE(sm.status == "ok");
        CHECK(sm.time_ms == Approx(2044.0).epsilon(1e-12));
        CHECK(sm.bytes_written == 1020);
        CHECK(sm.bytes_read == 1020);
        CHECK(sm.swap_writes_cancelled == 0);
        CHECK(sm.swap_freed_bytes == 1020);
    }
}

TEST_CASE("hostile random logs: semi_sync with the BACKWARD annotation before the first operator") {
    // forward_end 0: no forward op, so no writes to wait for (it read writes 'after op -1').
    const char* log = R"({"INSTRUCTION":"CONSTANT","NAME":"w"}
{"INSTRUCTION":"MEMORY","MEMORY":"100","NAME":"w"}
{"ANNOTATION":"BACKWARD","INSTRUCTION":"ANNOTATE"}
{"ARGS":["w"],"INSTRUCTION":"CALL","NAME":"f","RESULT":["a"],"TIME":"1000000"}
{"INSTRUCTION":"MEMORY","MEMORY":"50","NAME":"a"}
{"ALIAS":"-1","INSTRUCTION":"ALIAS","NAME":"a"}
{"ARGS":["a"],"INSTRUCTION":"CALL","NAME":"g","RESULT":["b"],"TIME":"2000000"}
{"INSTRUCTION":"MEMORY","MEMORY":"20","NAME":"b"}
{"ALIAS":"-1","INSTRUCTION":"ALIAS","NAME":"b"}
)";
    for (const char* semantics : {"reference", "simulated"}) {
        INFO(semantics);
        const Summary sm = run_log("first.log", log, fmt::format("{{semantics: {}, swap: {{mode: semi_sync}}}}", semantics));
        REQUIRE(sm.status == "ok");
        CHECK(sm.forward_end == 0);
        CHECK(sm.time_ms == 3.0);
        CHECK(sm.bytes_written == 0);
        CHECK(sm.peak_bytes == 170);
    }
}
