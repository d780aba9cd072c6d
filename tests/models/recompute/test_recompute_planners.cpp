// Static recomputation planners: hand-worked plans on a small training graph, the
// plan validator and Boost articulation points (MobilenetV2: tests/shared/).
#include <catch2/catch.hpp>

#include <stdexcept>

#include "models/alloc/os_allocator.h"
#include "models/recompute/capuchin.h"
#include "models/recompute/msps_on_demand.h"
#include "plan_replay.h"
#include "models/recompute/recompute_planner.h"
#include "models/recompute/sublinear.h"
#include "models/alloc/replay.h"
#include "sim/scenario/scenario.h"
#include "sim/app/run/simulation.h"

#include <fmt/format.h>

using namespace memsim;

namespace {

// Forward A: () -> a, B: a -> b, C: b -> c (costs 1, 2, 3 ms); backward dC: c -> gc,
// dB: b, gc -> gb, dA: a, gb -> ga (1 ms each). Every tensor 10 bytes; ga stays.
// Straight replay: 10, 20, 30, 40 (dC) -> peak 40.
Workload training_chain() {
    Workload w;
    w.name = "chain";
    const char* names[] = {"a", "b", "c", "gc", "gb", "ga"};
    for (int i = 0; i < 6; ++i) w.tensors.push_back(Tensor{names[i], 10, i, false, false, -1});
    w.ops = {
        Op{"A", 1.0, {}, {0}, {}, {}, {}},          Op{"B", 2.0, {0}, {1}, {}, {}, {}},
        Op{"C", 3.0, {1}, {2}, {}, {}, {}},         Op{"dC", 1.0, {2}, {3}, {}, {2}, {}},
        Op{"dB", 1.0, {1, 3}, {4}, {}, {1, 3}, {}}, Op{"dA", 1.0, {0, 4}, {5}, {}, {0, 4}, {}},
    };
    w.forward_end = 3;
    return w;
}

PlanStep compute(int op) { return {StepKind::Compute, op, -1}; }
PlanStep recompute(int op) { return {StepKind::Recompute, op, -1}; }
PlanStep release(TensorId t) { return {StepKind::Release, -1, t}; }

bool same_plan(const ExecPlan& a, const ExecPlan& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (a[i].kind != b[i].kind || a[i].op != b[i].op || a[i].tensor != b[i].tensor) return false;
    return true;
}

}  // namespace

TEST_CASE("plans: the straight plan of the training chain peaks at 40 bytes") {
    const Workload w = training_chain();
    const PlanReplayResult r = replay_plan(w, straight_plan(w));
    CHECK(r.ok);
    CHECK(r.peak_bytes == 40);
    OsAllocator os;
    CHECK(replay_peak(w, os) == 40);
}

TEST_CASE("msps_on_demand on the training chain, budget 30") {
    // Before dC (needs 10 more, limit 20, 30 live): candidates a (10 B / 1 ms) and b
    // (10 B / 2 ms); c is dC's input. a goes. Before dA, a is recomputed (A has no inputs).
    const Workload w = training_chain();
    const ExecPlan plan = plan_msps_on_demand(w, 30);
    CHECK(same_plan(plan, {compute(0), compute(1), compute(2), release(0), compute(3), compute(4), recompute(0), compute(5)}));
    const PlanReplayResult r = replay_plan(w, plan);
    CHECK(r.ok);
    CHECK(r.peak_bytes == 30);
    CHECK(r.recomputed_ops == 1);
    CHECK(r.recompute_ms == 1.0);
    CHECK(r.leaked_bytes == 0);
}

TEST_CASE("capuchin on the training chain, budget 30") {
    // Saving needed 40 - 30 = 10. MSPS: a 10/1, b 10/2, c 10/3 -> a, enough. a is dropped
    // after its last forward reader B and recomputed before dA.
    const Workload w = training_chain();
    const ExecPlan plan = plan_capuchin(w, 30);
    CHECK(same_plan(plan, {compute(0), compute(1), release(0), compute(2), compute(3), compute(4), recompute(0), compute(5)}));
    const PlanReplayResult r = replay_plan(w, plan);
    CHECK(r.ok);
    CHECK(r.peak_bytes == 30);
    CHECK(r.recomputed_ops == 1);
    // At or above the peak nothing changes.
    CHECK(same_plan(plan_capuchin(w, 40), straight_plan(w)));
}

TEST_CASE("sublinear on the training chain") {
    // Forward graph A - B - C: B is the only cut vertex. Threshold 30 B / sqrt(3) = 17.3:
    // after B 20 B have accumulated -> b is the checkpoint. a is dropped after B, c after C;
    // c is recomputed from b before dC, a before dA.
    const Workload w = training_chain();
    CHECK(forward_articulation_ops(w) == std::vector<int>{1});
    CHECK(sublinear_checkpoints(w) == std::vector<TensorId>{1});
    const ExecPlan plan = plan_sublinear(w, 0);
    CHECK(same_plan(plan, {compute(0), compute(1), release(0), compute(2), release(2), recompute(2), compute(3),
                           compute(4), recompute(0), compute(5)}));
    const PlanReplayResult r = replay_plan(w, plan);
    CHECK(r.ok);
    CHECK(r.peak_bytes == 30);
    CHECK(r.recomputed_ops == 2);
    CHECK(r.recompute_ms == 4.0);
}

TEST_CASE("sublinear: articulation points of a forward graph with a diamond") {
    // op0 -> op1, op0 -> op2, op1 + op2 -> op3, op3 -> op4: only op3 cuts the graph.
    Workload w;
    for (int i = 0; i < 5; ++i) w.tensors.push_back(Tensor{"t" + std::to_string(i), 1, i, false, false, -1});
    w.ops = {Op{"o0", 1, {}, {0}, {}, {}, {}}, Op{"o1", 1, {0}, {1}, {}, {}, {}}, Op{"o2", 1, {0}, {2}, {}, {}, {}},
             Op{"o3", 1, {1, 2}, {3}, {}, {}, {}}, Op{"o4", 1, {3}, {4}, {}, {}, {}}};
    w.forward_end = 5;
    CHECK(forward_articulation_ops(w) == std::vector<int>{3});
}

TEST_CASE("plan replay rejects a missing input and a double release") {
    const Workload w = training_chain();
    const PlanReplayResult missing = replay_plan(w, {compute(0), compute(1), release(0), compute(2), compute(3), compute(4), compute(5)});
    CHECK_FALSE(missing.ok);
    CHECK(missing.error == "step 6: compute of op 5 'dA': input 0 'a' is not resident");
    const PlanReplayResult twice = replay_plan(w, {compute(0), release(0), release(0)});
    CHECK_FALSE(twice.ok);
    CHECK(twice.error == "step 2: release of tensor 0 'a' which is not resident");
    const PlanReplayResult early = replay_plan(w, {compute(0), recompute(1)});
    CHECK_FALSE(early.ok);
    CHECK(early.error == "step 1: recompute of op 1 which has not been computed yet");
}

TEST_CASE("plan_recompute dispatches by name and rejects unknown planners") {
    const Workload w = training_chain();
    CHECK(same_plan(plan_recompute("msps_on_demand", w, 30), plan_msps_on_demand(w, 30)));
    CHECK(same_plan(plan_recompute("capuchin", w, 30), plan_capuchin(w, 30)));
    CHECK(same_plan(plan_recompute("sublinear", w, 30), plan_sublinear(w, 30)));
    CHECK(recompute_planner_names() == std::vector<std::string>{"msps_on_demand", "capuchin", "sublinear", "optimal"});
    CHECK_THROWS_AS(plan_recompute("checkmate", w, 30), std::invalid_argument);
    CHECK_THROWS_WITH(plan_recompute("sublinaer", w, 30),
                      "unknown recompute planner 'sublinaer' (valid: msps_on_demand, capuchin, sublinear, optimal; did you mean "
                      "'sublinear'?)");
}

// The engine runs a plan as written: a copy recomputed after its last use stays until the
// plan's own Release (it used to be freed after its first read and recomputed again on
// demand for every later reader: sublinear on MobilenetV2 made 540569 recomputations
// instead of 1413). Same recomputations and peak as the replay, for every planner and budget.
TEST_CASE("planners: the engine runs each plan with the replay's recomputations and peak") {
    const Workload w = training_chain();
    // 30 B is the largest working set (op dB): below it the run pipeline refuses the budget.
    for (const std::uint64_t budget : {30u, 40u}) {
        const Scenario s = parse_scenario(fmt::format("workload: {{synthetic: uniform_linear, n: 2}}\n"
                                                      "platform: {{memory: {{budget: {}B}}}}\npolicy: {{allocator: os}}\n",
                                                      budget),
                                          "test");
        for (const std::string& planner : recompute_planner_names()) {
            INFO(planner << " at budget " << budget);
            const ExecPlan plan = plan_recompute(planner, w, budget);
            const PlanReplayResult r = replay_plan(w, plan);
            REQUIRE(r.ok);
            const RunResult run = simulate(w, s, plan);
            if (r.peak_bytes > budget) {  // the plan cannot fit: the engine enforces the budget
                CHECK(run.summary.status == "oom");
                continue;
            }
            CHECK(run.summary.status == "ok");
            CHECK(run.summary.recomputed_ops == static_cast<std::uint64_t>(r.recomputed_ops));
            CHECK(run.summary.peak_bytes == r.peak_bytes);
            CHECK(run.summary.time_ms == Approx(r.compute_ms + r.recompute_ms));
        }
    }
}
