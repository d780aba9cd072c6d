// The summary's fields on traces worked out by hand (issue 15): compute performed and
// the iteration's, overhead against the no-policy run, the swap counters, evictions
// split into writes to disk and drops, budgets as a fraction of the live-bytes peak.
#include <catch2/catch.hpp>

#include "sim/app/run/measuring_runs.h"
#include "sim/app/run/run_pipeline.h"
#include "sim/app/run/run_warnings.h"
#include "sim/app/run/working_set.h"
#include "sim/scenario/scenario.h"
#include "test_support.h"

using namespace memsim;
using test::overlap_trace;

namespace {

Scenario fields_scenario(const std::string& platform, const std::string& policy, const std::vector<std::string>& sets = {}) {
    return parse_scenario("workload: {synthetic: mlp}\nplatform: {disk: {bandwidth: 100000B/s}" + platform + "}\npolicy: " +
                              policy + "\n",
                          "test", sets);
}

// op0 a (1 B); op1 b = f(a); op2 c = f(b); op3 makes a 5-byte scratch-like output;
// op4 reads c; op5 reads a and b (as recursion_graph in test_recompute_engine.cpp).
Workload recursion_graph() {
    return test::WorkloadBuilder()
        .op(1.0, 1, {}, {})
        .op(1.0, 1, {0}, {})
        .op(1.0, 1, {1}, {})
        .op(1.0, 5, {}, {3})
        .op(1.0, 1, {2}, {2, 4})
        .op(1.0, 1, {0, 1}, {0, 1, 5})
        .build(6);
}

}  // namespace

TEST_CASE("summary: async swapping on the overlap trace, every counter by hand") {
    // Async (test_swap_traces.cpp): 40.2 ms against 5 + 20 + 5 = 30 ms with no policy.
    // Both feature maps are selected, written, freed (1010 B) and read back.
    const RunResult r = run_simulation(fields_scenario("", "{swap: {mode: async}}"), overlap_trace());
    const Summary& s = r.summary;
    CHECK(s.time_ms == Approx(40.2).epsilon(1e-12));
    CHECK(s.no_policy_time_ms == Approx(30.0).epsilon(1e-12));
    CHECK(s.overhead == Approx(1.34).epsilon(1e-9));
    CHECK(s.compute_ms == 30.0);
    CHECK(s.iteration_compute_ms == 30.0);
    CHECK(s.swap_selected_tensors == 2);
    CHECK(s.swap_writes == 2);
    CHECK(s.swap_reads == 2);
    CHECK(s.swap_writes_cancelled == 0);
    CHECK(s.swap_freed_bytes == 1010);
    CHECK(s.bytes_written == 1010);
    CHECK(s.evictions == 0);
    CHECK(s.drops == 0);
    CHECK(s.evictions_to_disk == 0);
    // No budget: op2 holds both feature maps again (its working set is the no-swap peak).
    CHECK(s.warnings == std::vector<std::string>{"swapping saved no memory: live peak 1020 B, no-swap live peak 1020 B"});
}

TEST_CASE("summary: compute is scaled by the GPU speed and a run with no policy has overhead exactly 1") {
    const RunResult r = run_simulation(fields_scenario(", gpu: {speed_scale: 2}", "{allocator: os}"), overlap_trace());
    CHECK(r.summary.compute_ms == 15.0);
    CHECK(r.summary.iteration_compute_ms == 15.0);
    CHECK(r.summary.time_ms == Approx(15.0).epsilon(1e-12));
    CHECK(r.summary.overhead == 1.0);
    CHECK(r.summary.no_policy_time_ms == r.summary.time_ms);
    // A budget that never binds: the same time as its no-policy run, to the last bit (the
    // run and its measuring child start from the same clock), so overhead 1.
    const RunResult roomy = run_simulation(fields_scenario(", memory: {budget: 1MB}", "{allocator: os}"), overlap_trace());
    CHECK(roomy.summary.time_ms == roomy.summary.no_policy_time_ms);
    CHECK(roomy.summary.overhead == 1.0);
}

TEST_CASE("summary: a run stopped by oom reports the compute up to the stop, not the iteration's") {
    // dtr semantics at a 1-byte budget: op0 (1 ms) runs, op1 runs out of memory. The
    // iteration's compute is 6 x 1 ms.
    const Scenario s = parse_scenario(
        "workload: {synthetic: uniform_linear, n: 2}\nplatform: {memory: {budget: 1B}}\n"
        "policy: {allocator: os, semantics: dtr, recompute: {heuristic: dtr}}\n",
        "test");
    const RunResult r = run_simulation(s, recursion_graph());
    CHECK(r.summary.status == "oom");
    CHECK(r.summary.compute_ms == 1.0);
    CHECK(r.summary.iteration_compute_ms == 6.0);
    CHECK(r.summary.no_policy_time_ms == Approx(6.0).epsilon(1e-12));
}

TEST_CASE("summary: evictions are split into drops (recompute) and evictions to disk (swap)") {
    // Budget 6 with the size heuristic (traced by hand in test_recompute_engine.cpp, "a
    // recomputation whose input was itself evicted"): after C, a, b and c are resident
    // (3 B); D's 5-byte output needs room, so b goes (7 > 6), then c (6 B). Both are
    // dropped, to be recomputed for E (B, then C): two evictions, both drops, none to disk.
    const Scenario s = parse_scenario(
        "workload: {synthetic: uniform_linear, n: 2}\nplatform: {memory: {budget: 6B}}\n"
        "policy: {allocator: os, recompute: {heuristic: size}}\n",
        "test");
    const RunResult r = run_simulation(s, recursion_graph());
    CHECK(r.summary.status == "ok");
    CHECK(r.summary.recomputed_ops == 2);
    CHECK(r.summary.evictions == 2);
    CHECK(r.summary.drops == 2);
    CHECK(r.summary.evictions_to_disk == 0);
    CHECK(r.summary.compute_ms == 6.0);
    CHECK(r.summary.recompute_ms == 2.0);
}

TEST_CASE("budget: budget_ratio is a fraction of the live-bytes (os) peak whatever the allocator") {
    // Live-bytes peak of the overlap trace: t0 + t1 + t2 = 1020 B during op2.
    for (const std::string allocator : {"os", "pool"}) {
        INFO(allocator);
        const RunResult r = run_simulation(fields_scenario(", memory: {budget_ratio: 1.0}", "{allocator: " + allocator + "}"),
                                           overlap_trace());
        CHECK(r.summary.budget_base_bytes == 1020u);
        CHECK(r.summary.budget_bytes == 1020u);
        CHECK(r.summary.budget_ratio == 1.0);
    }
    CHECK(budget_base_bytes(overlap_trace()) == 1020);
}

TEST_CASE("budget: a ratio not above 0 or above 1 is an error unless allowed, a budget below an op working set names the op") {
    CHECK_THROWS_WITH(fields_scenario(", memory: {budget_ratio: 0}", "{}"),
                      Catch::Contains("test: platform.memory.budget_ratio: 0 is not in (0, 1]"));
    CHECK_THROWS_WITH(fields_scenario(", memory: {budget_ratio: 1.5}", "{}"),
                      Catch::Contains("test: platform.memory.budget_ratio: 1.5 is above 1") &&
                          Catch::Contains("platform.memory.allow_ratio_above_one: true"));
    CHECK_THROWS_WITH(fields_scenario("", "{}", {"platform.memory.budget_ratio=2"}),
                      Catch::StartsWith("--set 'platform.memory.budget_ratio=2': platform.memory.budget_ratio: 2 is above 1"));
    const RunResult above = run_simulation(fields_scenario(", memory: {budget_ratio: 1.5, allow_ratio_above_one: true}", "{}"),
                                           overlap_trace());
    CHECK(above.summary.budget_bytes == 1530u);
    // op2's working set: t0 + t1 (inputs) + t2 (output) = 1020 B.
    CHECK(largest_working_set(overlap_trace()).op == 2);
    CHECK(largest_working_set(overlap_trace()).bytes == 1020);
    CHECK_THROWS_WITH(run_simulation(fields_scenario(", memory: {budget: 1019B}", "{swap: {mode: async}}"), overlap_trace()),
                      Catch::Contains("test: platform.memory.budget: the budget 1019 B (1019 B) is below the working set of "
                                      "operator 2 'op2': 1020 B (1020 B)"));
    CHECK_NOTHROW(run_simulation(fields_scenario(", memory: {budget: 1020B}", "{swap: {mode: async}}"), overlap_trace()));
}

TEST_CASE("warnings: prefetch without async swapping, disk settings without swapping, an overridden --set") {
    const RunResult sync = run_simulation(fields_scenario("", "{swap: {mode: sync, prefetch: just_in_time}}"), overlap_trace());
    REQUIRE(sync.summary.warnings.size() == 2);
    CHECK(sync.summary.warnings[0] ==
          "policy.swap.prefetch 'just_in_time' has no effect: swap mode 'sync' does not prefetch (only async swapping "
          "issues swap-ins ahead of use)");
    // No budget: the swapped feature maps are back before op2, whose working set is the peak.
    CHECK(sync.summary.warnings[1] == "swapping saved no memory: live peak 1020 B, no-swap live peak 1020 B");
    const RunResult plain = run_simulation(fields_scenario("", "{allocator: os}"), overlap_trace());
    REQUIRE(plain.summary.warnings.size() == 1);  // the inline disk of fields_scenario()
    CHECK(plain.summary.warnings[0] == "platform.disk has no effect: swap mode 'none' never uses the disk");
    // A sweep over policies may swap at its other points: the scenario's disk is not inert.
    const Scenario swept = parse_scenario("workload: {synthetic: mlp}\nplatform: {disk: {bandwidth: 100000B/s}}\n"
                                          "policy: {allocator: os}\nsweep: {policy.swap.mode: [none, async]}\n",
                                          "test", {});
    CHECK(scenario_warnings(swept).empty());
    const Scenario twice = fields_scenario("", "{swap: {mode: async}}", {"policy.swap.mode=sync", "policy.swap.mode=async"});
    REQUIRE(twice.warnings.size() == 1);
    CHECK(twice.warnings[0] ==
          "--set 'policy.swap.mode=sync' has no effect: 'policy.swap.mode=async' (a later --set or the sweep's value) "
          "overrides it");
    const RunResult clean = run_simulation(fields_scenario("", "{swap: {mode: async, prefetch: just_in_time}}"), overlap_trace());
    // Only the result's own warning: nothing in the settings is inert.
    CHECK(clean.summary.warnings ==
          std::vector<std::string>{"swapping saved no memory: live peak 1020 B, no-swap live peak 1020 B"});
}

TEST_CASE("warnings: a prefetch the scenario's sweep uses at a mode that prefetches is not inert, one given for the run is") {
    const std::string inert = "policy.swap.prefetch 'just_in_time' has no effect: swap mode 'sync' does not prefetch (only "
                              "async swapping issues swap-ins ahead of use)";
    // As scenarios/swap_modes.yaml: the prefetch is there for the sweep's async point.
    const auto swept = [](const std::string& policy, const std::string& sweep, const std::vector<std::string>& sets) {
        const std::string head = "workload: {synthetic: mlp}\nplatform: {disk: {bandwidth: 100000B/s}}\n";
        return scenario_warnings(parse_scenario(head + "policy: " + policy + "\nsweep: " + sweep + "\n", "test", sets));
    };
    const std::string async_jit = "{swap: {mode: async, prefetch: just_in_time}}";
    CHECK(swept(async_jit, "{policy.swap.mode: [sync, semi_sync, async]}", {"policy.swap.mode=sync"}).empty());
    // The file's own mode may be the one that ignores it.
    CHECK(swept("{swap: {mode: sync, prefetch: just_in_time}}", "{policy.swap.mode: [sync, async]}", {}).empty());
    // Given for this run with --set (its key, a parameter under it, or a map above it): inert here.
    CHECK(swept(async_jit, "{policy.swap.mode: [sync, async]}",
                {"policy.swap.mode=sync", "policy.swap.prefetch=just_in_time"}) == std::vector<std::string>{inert});
    CHECK(swept(async_jit, "{policy.swap.mode: [sync, async]}", {"policy.swap={mode: sync, prefetch: just_in_time}"}) ==
          std::vector<std::string>{inert});
    // No point of the sweep prefetches: inert everywhere.
    CHECK(swept(async_jit, "{policy.swap.mode: [sync, semi_sync]}", {"policy.swap.mode=sync"}) ==
          std::vector<std::string>{inert});
    // The sweep sets the prefetch at every point: the file's is used by none.
    CHECK(swept(async_jit, "{policy.swap.mode: [sync, async], policy.swap.prefetch: [eager, budget]}",
                {"policy.swap.mode=sync"}) == std::vector<std::string>{inert});
    // A sweep over other keys leaves the warning as it was.
    CHECK(swept("{swap: {mode: sync, prefetch: just_in_time}}", "{platform.disk.bandwidth: [1MB/s, 2MB/s]}", {}) ==
          std::vector<std::string>{inert});
}
