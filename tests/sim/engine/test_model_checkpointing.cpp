// The model's own checkpointing (Op::recomputes: torch.utils.checkpoint's re-run forward in
// a trace, a synthetic step's checkpointing mode): the re-run ops run on the recompute lane
// and the summary counts them apart from memsim's policy recomputations.
#include <catch2/catch.hpp>

#include "sim/app/run/simulation.h"
#include "sim/scenario/scenario.h"
#include "test_support.h"

using namespace memsim;

TEST_CASE("model checkpointing: re-run forward ops are the model's recomputation, on the recompute lane") {
    // op0 and op1 are the forward (5 ms each); op2 re-runs op1 in the backward (5 ms), op3
    // reads its output (5 ms). No policy: 20 ms, of which 5 ms the model's recomputation.
    Workload w = test::WorkloadBuilder()
                     .op(5, 100, {}, {})
                     .op(5, 100, {0}, {})
                     .op(5, 100, {0}, {0})
                     .op(5, 10, {2}, {1, 2})
                     .build(2);
    w.ops[2].recomputes = 1;
    const RunResult r = simulate(w, parse_scenario("workload: {synthetic: mlp}\npolicy: {allocator: os}\n", "test"));
    REQUIRE(r.summary.status == "ok");
    CHECK(r.summary.time_ms == Approx(20.0).epsilon(1e-12));
    CHECK(r.summary.compute_ms == Approx(20.0).epsilon(1e-12));
    CHECK(r.summary.recomputed_ops == 0);  // memsim's policy recomputed nothing
    CHECK(r.summary.details.at("model_recomputed_ops") == 1);
    CHECK(r.summary.details.at("model_recompute_ms") == Approx(5.0).epsilon(1e-12));
    int recompute_lane = 0;
    for (const Activity& a : r.log.activities)
        if (a.lane == lane::kRecompute) {
            ++recompute_lane;
            CHECK(a.op == 2);
            CHECK(a.start_ms == Approx(10.0).epsilon(1e-12));
        }
    CHECK(recompute_lane == 1);
    // Without checkpointing the summary has no such keys (summaries stay as they were).
    w.ops[2].recomputes = kNoOp;
    const RunResult plain = simulate(w, parse_scenario("workload: {synthetic: mlp}\npolicy: {allocator: os}\n", "test"));
    CHECK(plain.summary.details.count("model_recomputed_ops") == 0);
}
