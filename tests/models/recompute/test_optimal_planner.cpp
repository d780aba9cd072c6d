// The optimal recomputation planner (docs/optimal.md): tiny graphs whose optimum is worked
// out by hand at every budget, the chain's dynamic program against the integer program,
// infeasible budgets, and plans the engine replays in the time the program predicts.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "models/recompute/optimal/chain_dp.h"
#include "models/recompute/optimal/optimal_planner.h"
#include "models/recompute/optimal/remat_milp.h"
#include "models/recompute/recompute_planner.h"
#include "models/workload/synthetic.h"
#include "optimal_support.h"
#include "plan_replay.h"
#include "sim/scenario/scenario.h"
#include "sim/app/run/simulation.h"

using namespace memsim;
using namespace memsim::optimal;

namespace {

struct T {
    const char* name;
    std::uint64_t bytes;
    int producer;
};

Workload graph(const std::vector<T>& tensors, std::vector<Op> ops, int forward_end) {
    Workload w;
    w.name = "hand";
    for (const T& t : tensors) w.tensors.push_back(Tensor{t.name, t.bytes, t.producer, false, false, -1});
    w.ops = std::move(ops);
    w.forward_end = forward_end;
    return w;
}

// Forward F0: () -> x0 (10 B, 1 ms), F1: x0 -> x1 (20 B, 2 ms); backward B1: x1 -> g1
// (5 B, 1 ms), B0: x0, g1 -> g0 (5 B, 1 ms); g0 is the result. Compute 5 ms.
// Straight: 10, 30 (F1), 35 (B1: x0 x1 g1), 20 (B0) -> peak 35. F1's working set is 30.
// At 30..34 x0 must go before B1 (x0 + x1 + g1 = 35) and F0 runs again before B0 (15,
// then 20): 6 ms. From 35 nothing is recomputed: 5 ms. Below 30 F1 cannot run.
Workload four_op_chain() {
    return graph({{"x0", 10, 0}, {"x1", 20, 1}, {"g1", 5, 2}, {"g0", 5, 3}},
                 {Op{"F0", 1.0, {}, {0}, {}, {}, {}}, Op{"F1", 2.0, {0}, {1}, {}, {}, {}},
                  Op{"B1", 1.0, {1}, {2}, {}, {1}, {}}, Op{"B0", 1.0, {0, 2}, {3}, {}, {0, 2}, {}}},
                 2);
}

// A diamond and its backward pass, every tensor 4 B: A: () -> a (1 ms), B: a -> b (2),
// C: a -> c (3), D: b, c -> d (1); E: d, b -> e, F: e, c -> f, G: f, a -> g (1 ms each);
// compute 10 ms; g stays. Straight peak 20 (at E: a b c d e); every op's working set is
// at most 12. At 16..19, a goes after D and A runs again before G: 11 ms. At 12..15 D
// cannot hold a (b c d + a = 16), E cannot hold c: before F, A and C run again (c needs
// a), and A once more before G (F cannot hold a too): 1 + 3 + 1 -> 15 ms.
Workload diamond() {
    return graph({{"a", 4, 0}, {"b", 4, 1}, {"c", 4, 2}, {"d", 4, 3}, {"e", 4, 4}, {"f", 4, 5}, {"g", 4, 6}},
                 {Op{"A", 1.0, {}, {0}, {}, {}, {}}, Op{"B", 2.0, {0}, {1}, {}, {}, {}}, Op{"C", 3.0, {0}, {2}, {}, {}, {}},
                  Op{"D", 1.0, {1, 2}, {3}, {}, {}, {}}, Op{"E", 1.0, {3, 1}, {4}, {}, {1, 3}, {}},
                  Op{"F", 1.0, {4, 2}, {5}, {}, {2, 4}, {}}, Op{"G", 1.0, {5, 0}, {6}, {}, {0, 5}, {}}},
                 4);
}

// A shared input: X: () -> x (2 B, 4 ms) read by A: x -> a and B: x -> b (4 B, 1 ms each;
// B's release list frees x), C: a, b -> c (2 B), D: c -> d (6 B), dD: d -> gd (2 B),
// dAB: gd, a, b -> g (2 B, the result); 1 ms each, compute 10 ms. Straight peak 16 (D and
// dD hold a and b besides c d / d gd); the largest working set is dAB's, 12. At 12..15
// one of a, b (4 B) fits beside D and dD, not both: the other is recomputed before dAB,
// and since x is gone, X with it (4 + 1 ms): 15 ms, 2 recomputations.
Workload shared_input() {
    return graph({{"x", 2, 0}, {"a", 4, 1}, {"b", 4, 2}, {"c", 2, 3}, {"d", 6, 4}, {"gd", 2, 5}, {"g", 2, 6}},
                 {Op{"X", 4.0, {}, {0}, {}, {}, {}}, Op{"A", 1.0, {0}, {1}, {}, {}, {}}, Op{"B", 1.0, {0}, {2}, {}, {0}, {}},
                  Op{"C", 1.0, {1, 2}, {3}, {}, {}, {}}, Op{"D", 1.0, {3}, {4}, {}, {3}, {}},
                  Op{"dD", 1.0, {4}, {5}, {}, {4}, {}}, Op{"dAB", 1.0, {5, 1, 2}, {6}, {}, {1, 2, 5}, {}}},
                 5);
}

OptimalOptions milp_only() {
    OptimalOptions o;
    o.use_chain_dp = false;
    o.time_limit_s = test::kProofLimitS;  // the cases check CBC's proofs
    return o;
}

OptimalOptions dp_only() {
    OptimalOptions o;
    o.use_milp = false;
    return o;
}

// The plan through the engine: its time and peak (os allocator, no I/O, speed 1).
RunResult replay(const Workload& w, const ExecPlan& plan, std::uint64_t budget) {
    const Scenario s = parse_scenario(fmt::format("workload: {{synthetic: uniform_linear, n: 2}}\n"
                                                  "platform: {{memory: {{budget: {}B}}}}\npolicy: {{allocator: os}}\n",
                                                  budget),
                                      "test");
    return simulate(w, s, plan);
}

void check_replay(const Workload& w, const OptimalResult& r, std::uint64_t budget) {
    const RunResult run = replay(w, r.plan, budget);
    REQUIRE(run.summary.status == "ok");
    CHECK(std::abs(run.summary.time_ms - r.time_ms) <= 1e-9 * std::max(r.time_ms, 1e-6));
    CHECK(run.summary.live_peak_bytes <= budget);
    CHECK(run.summary.live_peak_bytes == r.peak_bytes);
    const PlanReplayResult oracle = replay_plan(w, r.plan);
    CHECK(oracle.ok);
    CHECK(oracle.leaked_bytes == 0);
}

}  // namespace

TEST_CASE("optimal: the 4-op chain at each budget by the dynamic program and by the integer program") {
    const Workload w = four_op_chain();
    REQUIRE(chain_of(make_problem(w, 35)).has_value());
    for (const OptimalOptions& options : {dp_only(), milp_only()}) {
        const OptimalResult low = solve_optimal(w, 29, options);
        CHECK(low.status == OptimalStatus::Infeasible);
        CHECK(low.reason == "infeasible: no plan fits the budget of 29 B: op 1 'F1' needs 30 B while it runs: its inputs 10 B, "
                            "what its Compute allocates 20 B (outputs, scratch), 0 B that no plan can free by then "
                            "(constants still to be read, scratch never freed)");
        for (const std::uint64_t budget : {30u, 34u, 35u, 1000u}) {
            INFO("budget " << budget << (options.use_milp ? " milp" : " dp"));
            const OptimalResult r = solve_optimal(w, budget, options);
            REQUIRE(r.status == OptimalStatus::Optimal);
            CHECK(r.method == (budget < 35 ? (options.use_milp ? "milp" : "chain dp") : r.method));
            CHECK(r.time_ms == (budget < 35 ? 6.0 : 5.0));
            CHECK(r.bound_ms == r.time_ms);
            CHECK(r.compute_ms == 5.0);
            if (budget < 35) {
                CHECK(r.schedule.recompute == std::vector<std::vector<int>>{{}, {}, {}, {0}});
                CHECK(r.peak_bytes == 30);
            } else {
                CHECK(r.peak_bytes == 35);
            }
            check_replay(w, r, budget);
        }
    }
}

TEST_CASE("optimal: a diamond at each budget") {
    const Workload w = diamond();
    CHECK_FALSE(chain_of(make_problem(w, 20)).has_value());
    CHECK(solve_optimal(w, 11, milp_only()).status == OptimalStatus::Infeasible);
    const std::pair<std::uint64_t, double> expected[] = {{12, 15.0}, {15, 15.0}, {16, 11.0}, {19, 11.0}, {20, 10.0}, {64, 10.0}};
    for (const auto& [budget, time] : expected) {
        INFO("budget " << budget);
        const OptimalResult r = solve_optimal(w, budget, milp_only());
        REQUIRE(r.status == OptimalStatus::Optimal);
        CHECK(r.time_ms == time);
        CHECK(r.bound_ms == time);
        if (budget <= 15) CHECK(r.schedule.recompute == std::vector<std::vector<int>>{{}, {}, {}, {}, {}, {0, 2}, {0}});
        if (budget == 16) CHECK(r.schedule.recompute == std::vector<std::vector<int>>{{}, {}, {}, {}, {}, {}, {0}});
        check_replay(w, r, budget);
    }
}

TEST_CASE("optimal: a graph with a shared input at each budget") {
    const Workload w = shared_input();
    CHECK(solve_optimal(w, 11, milp_only()).status == OptimalStatus::Infeasible);
    for (const std::uint64_t budget : {12u, 15u, 16u}) {
        INFO("budget " << budget);
        const OptimalResult r = solve_optimal(w, budget, milp_only());
        REQUIRE(r.status == OptimalStatus::Optimal);
        CHECK(r.time_ms == (budget < 16 ? 15.0 : 10.0));
        const ScheduleCheck c = check_schedule(make_problem(w, budget), r.schedule);
        CHECK(c.recomputed_ops == (budget < 16 ? 2u : 0u));
        if (budget < 16) {
            // X and one of its readers, before dAB.
            REQUIRE(r.schedule.recompute[6].size() == 2);
            CHECK(r.schedule.recompute[6][0] == 0);
        }
        check_replay(w, r, budget);
    }
}

TEST_CASE("optimal: a budget above every working set that no plan fits is infeasible as CBC proves") {
    // X: () -> x (8 B, 4 ms), A: x -> a, B: x -> b (2 B; B frees x), dB: b -> gb, dA: a, gb
    // -> ga. The largest working set is 10 (A: x a; B: x b), but at 10 and 11 a cannot be
    // resident while B runs (x a b = 12), and bringing a back needs x (8) beside something
    // else that must stay (b, or gb): 12.
    const Workload w = graph({{"x", 8, 0}, {"a", 2, 1}, {"b", 2, 2}, {"gb", 2, 3}, {"ga", 2, 4}},
                             {Op{"X", 4.0, {}, {0}, {}, {}, {}}, Op{"A", 1.0, {0}, {1}, {}, {}, {}},
                              Op{"B", 1.0, {0}, {2}, {}, {0}, {}}, Op{"dB", 1.0, {2}, {3}, {}, {2}, {}},
                              Op{"dA", 1.0, {1, 3}, {4}, {}, {1, 3}, {}}},
                             3);
    const RematProblem p = make_problem(w, 11);
    CHECK_FALSE(infeasibility_reason(p).has_value());
    const OptimalResult r = solve_optimal(w, 11, milp_only());
    CHECK(r.status == OptimalStatus::Infeasible);
    CHECK(r.reason == "infeasible: CBC proved that no plan of the program's class fits the budget");
    CHECK(status_text(r) == "infeasible");
    const OptimalResult fits = solve_optimal(w, 12, milp_only());
    CHECK(fits.status == OptimalStatus::Optimal);
    CHECK(fits.time_ms == 8.0);
    // Through the planner table: a PlanStopped "infeasible" with the reason.
    PlannerInputs inputs;
    inputs.budget_bytes = 11;
    try {
        (void)plan_recompute("optimal", w, inputs);
        FAIL("no PlanStopped");
    } catch (const PlanStopped& stop) {
        CHECK(stop.status == "infeasible");
        CHECK(std::string(stop.what()) == r.reason);
    }
}

TEST_CASE("optimal: the dynamic program and the integer program agree on chains") {
    const std::vector<Workload> chains{make_chain(3), make_chain(5), make_uniform_linear(6), make_uniform_linear(9),
                                       four_op_chain()};
    for (const Workload& w : chains) {
        const RematProblem base = make_problem(w, 0);
        REQUIRE(chain_of(base).has_value());
        const ScheduleCheck straight = check_schedule(make_problem(w, ~0ull), empty_schedule(base));
        const std::uint64_t peak = straight.peak_bytes;
        std::size_t compared = 0;
        for (int step = 0; step <= 12; ++step) {
            const auto budget = static_cast<std::uint64_t>(std::ceil(static_cast<double>(peak) * (0.3 + 0.06 * step)));
            INFO(w.name << " at " << budget << " B (peak " << peak << ")");
            const OptimalResult dp = solve_optimal(w, budget, dp_only());
            const OptimalResult milp = solve_optimal(w, budget, milp_only());
            REQUIRE((dp.status == OptimalStatus::Infeasible) == (milp.status == OptimalStatus::Infeasible));
            if (dp.status == OptimalStatus::Infeasible) continue;
            CHECK(dp.status == OptimalStatus::Optimal);
            CHECK(milp.status == OptimalStatus::Optimal);
            CHECK(dp.time_ms == Approx(milp.time_ms).epsilon(1e-12));
            ++compared;
        }
        CHECK(compared >= 3);
    }
}

TEST_CASE("optimal: every plan replays in the engine in the time the program predicts and within the budget") {
    const std::vector<Workload> workloads{make_chain(8), make_branching(7), make_uniform_linear(12), diamond()};
    for (const Workload& w : workloads) {
        const std::uint64_t peak = check_schedule(make_problem(w, ~0ull), empty_schedule(make_problem(w, 0))).peak_bytes;
        for (const double ratio : {0.5, 0.7, 0.9}) {
            const auto budget = static_cast<std::uint64_t>(static_cast<double>(peak) * ratio);
            INFO(w.name << " at " << ratio);
            OptimalOptions options;
            options.time_limit_s = 10;
            const OptimalResult r = solve_optimal(w, budget, options);
            if (r.status == OptimalStatus::Infeasible) continue;
            check_replay(w, r, budget);
        }
    }
}
