// Static recomputation planners on MobilenetV2 batch 4 at 60% of the no-swap peak: each
// plan valid, within the budget, and run by the engine as written.
#include <catch2/catch.hpp>

#include <cstdint>

#include <fmt/format.h>

#include "models/alloc/os_allocator.h"
#include "plan_replay.h"
#include "models/recompute/recompute_planner.h"
#include "models/workload/mnn_profile.h"
#include "models/alloc/replay.h"
#include "shared_data.h"
#include "sim/scenario/scenario.h"
#include "sim/app/run/simulation.h"

using namespace memsim;
using namespace memsim::test;

TEST_CASE("planners on MobilenetV2 batch 4 at 60% of the no-swap peak", "[shared]") {
    const Workload w = load_mnn_profile(shared_profile("MobilenetV2"), 4);
    OsAllocator os;
    const std::uint64_t peak = replay_peak(w, os);
    REQUIRE(static_cast<double>(peak) == peer_reference("MobilenetV2", 4).at("oracle_peak_bytes"));
    const auto budget = static_cast<std::uint64_t>(static_cast<double>(peak) * 0.6);
    struct Expected {
        const char* planner;
        std::uint64_t peak_bytes;
        int recomputed_ops;
        double time_ms;
    };
    // Measured (docs/recompute.md); each plan must also be valid, leak nothing, stay
    // within the budget, and the engine must run it as written: the same peak and
    // recomputations as the replay, time = compute + recompute (no swap, no stall).
    const Expected expected[] = {{"msps_on_demand", 350867572, 127, 2570.016},
                                 {"capuchin", 350390180, 203, 2801.810},
                                 {"sublinear", 225115876, 1413, 3212.999}};
    const Scenario s = parse_scenario(fmt::format("workload: {{synthetic: uniform_linear, n: 2}}\n"
                                                  "platform: {{memory: {{budget: {}B}}}}\npolicy: {{allocator: os}}\n",
                                                  budget),
                                      "test");
    for (const Expected& e : expected) {
        INFO(e.planner);
        const ExecPlan plan = plan_recompute(e.planner, w, budget);
        const PlanReplayResult r = replay_plan(w, plan);
        CHECK(r.ok);
        CHECK(r.error == "");
        CHECK(r.leaked_bytes == 0);
        CHECK(r.compute_ms == Approx(w.compute_ms()));
        CHECK(r.peak_bytes == e.peak_bytes);
        CHECK(r.peak_bytes <= budget);
        CHECK(r.recomputed_ops == e.recomputed_ops);
        const RunResult run = simulate(w, s, plan);
        CHECK(run.summary.status == "ok");
        CHECK(run.summary.peak_bytes == e.peak_bytes);
        CHECK(run.summary.recomputed_ops == static_cast<std::uint64_t>(e.recomputed_ops));
        CHECK(run.summary.recompute_ms == Approx(r.recompute_ms));
        CHECK(run.summary.time_ms == Approx(e.time_ms).margin(1e-3));
    }
}
