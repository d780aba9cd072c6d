// The engine's eviction index (sim/engine/eviction_index.h) against the scan it replaces:
// with cross-checking on, every eviction is also chosen by scoring every candidate and a
// difference stops the run with an InvariantError. Budgets from generous to a few
// percent, both staleness-form heuristics, simulated and dtr semantics, and swapping
// beside recomputation (the hand-worked choices are in test_recompute_engine.cpp and
// test_dtr_engine.cpp, the published ones in the shared DTR tests; all run through the index).
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include "sim/engine/eviction_index.h"
#include "sim/scenario/scenario.h"
#include "sim/app/run/simulation.h"
#include "sim/app/run/workload_factory.h"

using namespace memsim;

namespace {

struct CrossCheck {
    CrossCheck() { eviction_index_cross_check() = true; }
    ~CrossCheck() { eviction_index_cross_check() = false; }
};

RunResult run_indexed(const std::string& yaml) {
    const Scenario s = parse_scenario(yaml, "index.yaml");
    return simulate(load_workload(s), s);
}

}  // namespace

TEST_CASE("the eviction index chooses what scoring every candidate chooses") {
    const CrossCheck on;
    for (const char* kind : {"chain", "branching", "uniform_linear"})
        for (const char* heuristic : {"dtr", "dtr_local"})
            for (const char* semantics : {"simulated", "dtr"})
                for (double ratio : {0.9, 0.5, 0.2, 0.05}) {
                    INFO(kind << " " << heuristic << " " << semantics << " " << ratio);
                    const RunResult r = run_indexed(
                        fmt::format("workload: {{synthetic: {}, n: 300}}\nplatform: {{memory: {{budget_ratio: {}}}}}\n"
                                    "policy: {{allocator: pool, semantics: {}, recompute: {{heuristic: {}}}}}\n",
                                    kind, ratio, semantics, heuristic));
                    CHECK((r.summary.status == "ok" || r.summary.status == "oom" || r.summary.status == "thrash"));
                    if (ratio == 0.5) CHECK(r.summary.evictions > 0);
                }
}

TEST_CASE("the eviction index chooses what the scan chooses when evictions can also go to disk") {
    const CrossCheck on;
    for (const char* extra : {"swap: {mode: async, select: feature_maps}", "swap: {mode: sync, select: feature_maps}, hybrid: true"}) {
        INFO(extra);
        const RunResult r = run_indexed(
            fmt::format("workload: {{synthetic: branching, n: 300}}\nplatform: {{memory: {{budget_ratio: 0.4}}}}\n"
                        "policy: {{allocator: pool, recompute: {{heuristic: dtr}}, {}}}\n",
                        extra));
        CHECK(r.summary.evictions > 0);
    }
}
