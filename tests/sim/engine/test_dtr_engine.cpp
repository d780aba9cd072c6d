// The DTR uniform linear table (tests/support/uniform_linear_table.h) reproduced by the SimGrid engine in
// `policy.semantics: dtr`: every row and heuristic, exact recomputed-op counts.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include "models/workload/synthetic.h"
#include "sim/scenario/scenario.h"
#include "sim/app/run/simulation.h"
#include "uniform_linear_table.h"

using namespace memsim;

namespace {

RunResult run_dtr(int n, std::uint64_t budget, const std::string& heuristic) {
    const std::string yaml = fmt::format(
        "workload: {{synthetic: uniform_linear, n: {}}}\nplatform: {{memory: {{budget: {}B}}}}\n"
        "policy: {{allocator: os, semantics: dtr, recompute: {{heuristic: {}}}}}\n",
        n, budget, heuristic);
    const Scenario s = parse_scenario(yaml, "test");
    return simulate(make_uniform_linear(n), s);
}

}  // namespace

TEST_CASE("dtr semantics in the engine: the uniform linear table for every row and heuristic") {
    for (const test::UniformLinearRow& row : test::kUniformLinearTable) {
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
