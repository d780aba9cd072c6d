// A run records its event log only when an output reads it (OutputRow::reads_event_log) or
// on a node, whose resource lanes are checked against the log: a summary-only run spends
// nothing per activity on recording (docs/performance.md, "Per activity"). The summary is
// the same either way.
#include <catch2/catch.hpp>

#include <string>

#include "sim/app/run/run_pipeline.h"
#include "sim/app/run/workload_factory.h"
#include "sim/scenario/scenario.h"

using namespace memsim;

namespace {

// uniform_linear n = 3: f0 f1 f2 b2 b1 b0, 1 ms each, 1-byte tensors.
RunResult run_with(const std::string& extra) {
    const Scenario s = parse_scenario("workload: {synthetic: uniform_linear, n: 3}\npolicy: {allocator: os}\n" + extra, "t.yaml");
    return run_simulation(s, load_workload(s));
}

}  // namespace

TEST_CASE("event log recording: a summary-only run records nothing, an output that reads the log turns it on") {
    const RunResult plain = run_with("");
    CHECK(plain.log.activities.empty());
    CHECK(plain.log.memory.empty());
    CHECK(plain.log.residency.empty());
    for (const std::string output : {"events", "gantt", "trace"}) {
        INFO(output);
        const RunResult logged = run_with("output: {" + output + ": true}\n");
        REQUIRE(logged.log.activities.size() == 6);  // one compute activity per operator
        CHECK(logged.log.activities.back().end_ms == Approx(6.0).epsilon(1e-12));
        CHECK(!logged.log.memory.empty());
        CHECK(logged.log.residency.size() == 12);  // each of the 6 tensors taken and given back
        // Approx: a later simulation in one process starts later on SimGrid's clock.
        CHECK(logged.summary.time_ms == Approx(plain.summary.time_ms).epsilon(1e-12));
        CHECK(logged.summary.peak_bytes == plain.summary.peak_bytes);
    }
    CHECK(plain.summary.time_ms == Approx(6.0).epsilon(1e-12));
}

TEST_CASE("event log recording: a node run records its log for the resource-lane check") {
    const RunResult node = run_with("platform: {host: {link: {bandwidth: 1000000B/s, latency: 0.01ms}}}\n");
    CHECK(node.log.activities.size() == 6);
}
