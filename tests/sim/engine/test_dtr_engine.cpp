// The DTR uniform linear table (dtr-logs/README.md) reproduced by the SimGrid engine in
// `policy.semantics: dtr`: every row and heuristic, exact recomputed-op counts.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include "models/workload/synthetic.h"
#include "sim/scenario/scenario.h"
#include "sim/simulation.h"

using namespace memsim;

namespace {

struct Row {
    int n, budget;
    int dtr, dtr_eq, dtr_local, msps, lru, size;
};

const Row kTable[] = {
    {16, 8, 8, 8, 11, 9, 11, 44},          {16, 4, 57, 57, 67, 29, 67, 90},
    {64, 16, 49, 49, 161, 60, 161, 1224},  {64, 8, 102, 102, 598, 104, 598, 1652},
    {64, 32, 32, 32, 35, 33, 35, 560},     {100, 10, 159, 159, 1255, 162, 1255, 4185},
    {256, 16, 400, 400, 6984, 428, 6984, 29160},
};

RunResult run_dtr(int n, int budget, const std::string& heuristic) {
    const std::string yaml = fmt::format(
        "workload: {{synthetic: uniform_linear, n: {}}}\nplatform: {{memory: {{budget: {}B}}}}\n"
        "policy: {{allocator: os, semantics: dtr, recompute: {{heuristic: {}}}}}\n",
        n, budget, heuristic);
    const Scenario s = parse_scenario(yaml, "test");
    return simulate(make_uniform_linear(n), s);
}

}  // namespace

TEST_CASE("dtr semantics in the engine: the uniform linear table for every row and heuristic") {
    for (const Row& row : kTable) {
        const std::pair<const char*, int> expected[] = {{"dtr", row.dtr}, {"dtr_eq", row.dtr_eq}, {"dtr_local", row.dtr_local},
                                                        {"msps", row.msps}, {"lru", row.lru},       {"size", row.size}};
        for (const auto& [heuristic, count] : expected) {
            INFO("n=" << row.n << " budget=" << row.budget << " heuristic=" << heuristic);
            const RunResult r = run_dtr(row.n, row.budget, heuristic);
            CHECK(r.summary.status == "ok");
            CHECK(r.summary.recomputed_ops == static_cast<std::uint64_t>(count));
            CHECK(r.summary.peak_bytes <= static_cast<std::uint64_t>(row.budget));
            // The clock advances by operator cost only: 1 ms per op, recomputations included.
            CHECK(r.summary.time_ms == Approx(2.0 * row.n + count));
        }
    }
}

TEST_CASE("dtr semantics: a budget at the no-swap peak recomputes nothing") {
    const RunResult r = run_dtr(32, 64, "dtr");
    CHECK(r.summary.recomputed_ops == 0);
    CHECK(r.summary.evictions == 0);
}

TEST_CASE("dtr semantics: a smaller budget never lowers the recomputation count of dtr") {
    std::uint64_t previous = 0;
    for (int budget = 32; budget >= 4; --budget) {
        INFO("budget " << budget);
        const RunResult r = run_dtr(32, budget, "dtr");
        REQUIRE(r.summary.status == "ok");
        CHECK(r.summary.recomputed_ops >= previous);
        previous = r.summary.recomputed_ops;
    }
}

TEST_CASE("dtr semantics: too small a budget is out of memory with a clear message") {
    const RunResult r = run_dtr(16, 2, "dtr");
    CHECK(r.summary.status == "oom");
    CHECK_THAT(r.summary.message, Catch::Contains("out of memory at op"));
    CHECK_THAT(r.summary.message, Catch::Contains("budget 2 B"));
}
