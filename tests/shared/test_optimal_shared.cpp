// The optimal planner on the shared DTR logs: never slower than any dynamic heuristic at
// the same budget (their runs are its candidates, as in a run), and its plan replays in
// the engine within the budget in the time it predicts. These logs are thousands of
// operators, beyond the integer program: the answer is the best candidate, and a
// failure names the log, the budget and the heuristic.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "models/alloc/os_allocator.h"
#include "models/alloc/replay.h"
#include "models/recompute/eviction_heuristic.h"
#include "models/recompute/optimal/optimal_planner.h"
#include "models/workload/dtr_log.h"
#include "shared_data.h"
#include "sim/app/run/heuristic_runs.h"
#include "sim/scenario/scenario.h"
#include "sim/app/run/simulation.h"

using namespace memsim;
using namespace memsim::test;

namespace {

// A heuristic's run stops as thrash once its recomputation passes this multiple of the
// compute time. Every heuristic that finishes on these logs at 0.5 and 0.8 recomputes
// less than 2.4x the compute time (measured 2026-11-30: at most 3.389x the compute in
// all, tv_densenet121 at 0.5), so the runs compared are the same as without a limit;
// the runs that end out of memory had recomputed up to 100x the compute (the built-in
// limit) before they did, 18 of the case's 19 s.
constexpr double kHeuristicMaxOverhead = 4.0;

Scenario at_budget(std::uint64_t budget, const std::string& heuristic) {
    return parse_scenario(fmt::format("workload: {{synthetic: mlp}}\nplatform: {{memory: {{budget: {}B}}}}\n"
                                      "policy: {{allocator: os{}}}\n",
                                      budget,
                                      heuristic.empty() ? ""
                                                        : fmt::format(", recompute: {{heuristic: {}, max_overhead: {}}}",
                                                                      heuristic, kHeuristicMaxOverhead)),
                          "test");
}

}  // namespace

TEST_CASE("optimal: never slower than any heuristic on the shared DTR logs", "[shared]") {
    for (const std::string prefix : {"inceptionv4-64", "lstm-128", "transformer-10", "treelstm-6", "tv_densenet121-84",
                                     "unroll_gan-512"}) {
        const Workload w = load_dtr_log(shared_dtr_log(prefix));
        OsAllocator os;
        const std::uint64_t peak = replay_peak(w, os);
        for (const double ratio : {0.5, 0.8}) {
            const auto budget = static_cast<std::uint64_t>(std::floor(static_cast<double>(peak) * ratio));
            std::vector<optimal::CandidatePlan> runs;
            std::vector<std::pair<std::string, double>> times;
            for (const std::string& h : eviction_heuristic_names()) {
                const RunResult r = simulate(w, at_budget(budget, h));
                if (r.summary.status != "ok") continue;
                runs.push_back({h, plan_of_run(r.log)});
                times.emplace_back(h, r.summary.time_ms);
            }
            optimal::OptimalOptions options;
            options.time_limit_s = 5;
            options.candidates = runs;
            const optimal::OptimalResult best = optimal::solve_optimal(w, budget, options);
            INFO(prefix << " at " << ratio << " of its peak (" << budget << " B)");
            REQUIRE(best.status != optimal::OptimalStatus::Infeasible);
            // One replay of the plan, against every heuristic's time.
            const RunResult replay = simulate(w, at_budget(budget, ""), best.plan);
            REQUIRE(replay.summary.status == "ok");
            CHECK(replay.summary.live_peak_bytes <= budget);
            CHECK(std::abs(replay.summary.time_ms - best.time_ms) <= 1e-9 * std::max(best.time_ms, 1e-6));
            for (const auto& [h, time] : times) {
                INFO(h << " took " << time << " ms");
                CHECK(replay.summary.time_ms <= time * (1 + 1e-9));
            }
        }
    }
}
