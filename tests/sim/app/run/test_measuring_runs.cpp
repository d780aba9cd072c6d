// The measuring runs (sim/app/run/measuring_runs.h): the run layer decides which a result
// needs, runs them in children on fresh clocks, and hands the engine the on-demand peak
// as a callable; the engine runs what it is given and measures nothing itself.
#include <catch2/catch.hpp>

#include "sim/engine/engine.h"
#include "sim/app/run/measuring_runs.h"
#include "sim/app/run/run_config.h"
#include "sim/scenario/scenario.h"
#include "test_support.h"

using namespace memsim;

namespace {

Scenario scenario(const std::string& policy, const std::string& platform = "") {
    return parse_scenario("workload: {synthetic: mlp}\nplatform: {disk: {bandwidth: 100000B/s}" + platform + "}\npolicy: " +
                              policy + "\n",
                          "test");
}

// As late_peak_trace in tests/sim/engine/test_swap_traces.cpp: with every read on
// demand the live peak is 2510 B (t3 + t0 + t4 at op4), reached in the backward pass.
Workload late_peak_trace() {
    return test::WorkloadBuilder()
        .op(1, 1000, {}, {})
        .op(20, 10, {}, {})
        .op(10, 10, {1}, {1})
        .op(10, 10, {2}, {2})
        .op(1, 1500, {0}, {0, 3, 4})
        .build(2);
}

bool needs_peak(const std::string& policy, const std::string& platform = "") {
    const Workload w = late_peak_trace();
    return needs_on_demand_peak(resolve_engine_config(scenario(policy, platform), w));
}

}  // namespace

TEST_CASE("measuring runs: the no-policy run unless there is no memory policy, the on-demand run for the budget prefetch's cap") {
    CHECK(has_no_memory_policy(scenario("{allocator: pool}")));
    CHECK_FALSE(has_no_memory_policy(scenario("{allocator: os}", ", memory: {budget: 1MB}")));
    CHECK_FALSE(has_no_memory_policy(scenario("{swap: {mode: sync}}")));
    // Only the budget rule under async, and only when neither a budget nor a cap replaces it.
    CHECK(needs_peak("{swap: {mode: async}}"));
    CHECK(needs_peak("{swap: {mode: async, prefetch: budget}}"));
    CHECK_FALSE(needs_peak("{swap: {mode: async, prefetch: {budget: {cap: 1010B}}}}"));
    CHECK_FALSE(needs_peak("{swap: {mode: async, select: budget}}", ", memory: {budget: 3000B}"));
    CHECK_FALSE(needs_peak("{swap: {mode: async, prefetch: just_in_time}}"));
    CHECK_FALSE(needs_peak("{swap: {mode: sync}}"));
}

TEST_CASE("measuring runs: the on-demand peak comes from a child, and the engine runs with what it is given") {
    const Workload w = late_peak_trace();
    EngineConfig config = resolve_engine_config(scenario("{swap: {mode: async}}"), w);
    const ExecPlan plan = straight_plan(w);
    MeasuringRuns measuring;
    config.no_prefetch_peak = measuring.start_on_demand_peak(w, config, plan);
    REQUIRE(config.no_prefetch_peak);
    CHECK(config.no_prefetch_peak() == 2510u);  // worked out in test_swap_traces.cpp
    // With the cap, t0's read is issued at op2 and op4 does not stall: 42 ms.
    CHECK(simulate(w, config, plan).summary.time_ms == Approx(42.0).epsilon(1e-12));
    // Without it the rule knows no cap and reads nothing early: the on-demand 52 ms.
    config.no_prefetch_peak = {};
    CHECK(simulate(w, config, plan).summary.time_ms == Approx(52.0).epsilon(1e-12));
    // Nothing to measure when the rule does not ask.
    EngineConfig capped = resolve_engine_config(scenario("{swap: {mode: async, prefetch: {budget: {cap: 1010B}}}}"), w);
    CHECK_FALSE(measuring.start_on_demand_peak(w, capped, plan));
}

TEST_CASE("measuring runs: the no-policy time is a lone run's, bit for bit, and a run without a policy is its own") {
    const Workload w = late_peak_trace();
    const Scenario swapping = scenario("{swap: {mode: sync}}");
    MeasuringRuns measuring;
    measuring.start_no_policy_time(swapping, w);  // forked now, on this process's fresh clock
    // The no-policy run simulated here, first in this process: the same clock start.
    const double lone = simulate(w, resolve_engine_config(without_memory_policy(swapping), w), straight_plan(w)).summary.time_ms;
    CHECK(lone == Approx(42.0).epsilon(1e-12));
    CHECK(measuring.no_policy_time_ms(123.0) == lone);  // exactly
    MeasuringRuns none;
    none.start_no_policy_time(scenario("{allocator: os}"), w);
    CHECK(none.no_policy_time_ms(123.0) == 123.0);
}
