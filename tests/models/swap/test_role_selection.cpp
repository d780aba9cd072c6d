// Swapping by role (policy.swap.select: parameters, optimizer_state, roles;
// models/swap/selection/role_selection.cpp) on a hand-made step whose gaps are worked out
// by hand: constants leave the GPU between their uses like activations.
#include <catch2/catch.hpp>

#include <algorithm>

#include "models/swap/selection/swap_selection.h"
#include "sim/app/run/simulation.h"
#include "sim/scenario/scenario.h"
#include "storage_checks.h"
#include "test_support.h"

using namespace memsim;

namespace {

// Forward: op0 reads W and makes a (100 B, 5 ms), op1 reads a and makes b (100 B, 50 ms).
// Backward: op2 reads b (10 B out, 5 ms), op3 reads a and W and makes the gradient g
// (1000 B, 5 ms). Step: op4 reads W, g and the optimizer state M (10 B out, 5 ms). W is a
// parameter (1000 B), M optimizer state (2000 B), both resident from the start.
struct Step {
    Workload w;
    TensorId weight = -1, state = -1;
};

Step training_step() {
    Step s;
    s.w = test::WorkloadBuilder()
              .op(5, 100, {}, {})
              .op(50, 100, {0}, {})
              .op(5, 10, {1}, {1})
              .op(5, 1000, {0}, {0})
              .op(5, 10, {3}, {3})
              .build(2);
    const auto constant = [&](const char* name, std::uint64_t bytes, TensorRole role) {
        Tensor t;
        t.name = name;
        t.bytes = bytes;
        t.constant = true;
        t.role = role;
        s.w.tensors.push_back(t);
        return static_cast<TensorId>(s.w.tensors.size() - 1);
    };
    s.weight = constant("W", 1000, TensorRole::parameter);
    s.state = constant("M", 2000, TensorRole::optimizer_state);
    s.w.tensors[3].role = TensorRole::gradient;
    s.w.ops[0].inputs.push_back(s.weight);
    s.w.ops[3].inputs.push_back(s.weight);
    s.w.ops[4].inputs = {s.weight, 3, s.state};
    return s;
}

SwapPlan plan_of(const Workload& w, const char* selection, const ParamValues& given = {}) {
    return make_swap_selection(*find_row(swap_selections(), selection), given)->plan(w, SelectionInputs{});
}

bool has(const std::vector<TensorId>& list, TensorId t) { return std::find(list.begin(), list.end(), t) != list.end(); }

}  // namespace

TEST_CASE("swap by role: each tensor of the roles named goes out over its longest idle gap") {
    const Step s = training_step();
    // W is read by op0, op3, op4: gaps op0 -> op3 (ops 1-2 idle: 55 ms); op3 -> op4 holds no op.
    const SwapPlan params = plan_of(s.w, "parameters");
    CHECK(params.selected == std::vector<TensorId>{s.weight});
    CHECK(params.selected_bytes == 1000);
    CHECK(has(params.out_after[0], s.weight));
    CHECK(has(params.in_for[3], s.weight));
    // M, read only by op4: out after op0 (the first op, which does not read it), in for op4.
    const SwapPlan state = plan_of(s.w, "optimizer_state");
    CHECK(state.selected == std::vector<TensorId>{s.state});
    CHECK(has(state.out_after[0], s.state));
    CHECK(has(state.in_for[4], s.state));
    // roles: both constants, and the activation a (op0 -> op3: idle over ops 1-2... a is read by
    // op1 right after it is made, so its longest gap is op1 -> op3, over op2).
    Workload w = s.w;
    w.tensors[0].role = TensorRole::activation;
    const SwapPlan both = plan_of(w, "roles", {{"roles", std::string("optimizer_state, parameter, activation")}});
    CHECK(both.selected == std::vector<TensorId>{0, s.weight, s.state});
    CHECK(has(both.out_after[1], 0));
    CHECK(has(both.in_for[3], 0));
    CHECK(both.selected_bytes == 3100);
    CHECK(make_swap_selection(*find_row(swap_selections(), "roles"))->moved_roles() ==
          std::vector<TensorRole>{TensorRole::optimizer_state, TensorRole::parameter});
}

TEST_CASE("swap by role: a role that is not one is refused with the roles there are") {
    const std::string yaml = "workload: {synthetic: mlp}\npolicy: {swap: {mode: async, select: {roles: {roles: 'optimizer, parameter'}}}}\n";
    CHECK_THROWS_WITH(validate_policy(parse_scenario(yaml, "s.yaml")),
                      Catch::Contains("policy.swap.select: 'roles': roles: 'optimizer' is not a role (roles: parameter, "
                                      "gradient, optimizer_state, activation, input, other)"));
}

TEST_CASE("swap by role: the optimizer state leaves the GPU until the step and is read back for it") {
    // Disk 1000 B/ms; async, eager prefetch, no budget. op0 0-5 (live W + M + a = 3100); op1
    // 5-55 takes b at 5 (3200); M is written 5-7 and freed (1200). op2 at 55: the eager rule
    // reads M back at once 55-57, taking its memory at the issue (3200, 3210 with op2's
    // output); op2 55-60 releases b (3110); op3 60-65 takes g (4110: the peak), releases a;
    // op4 65-70 with M resident. The step reads M with g live, so the swap does not lower
    // this peak: it frees 2000 B over ops 1-2.
    const Step s = training_step();
    const Scenario scenario = parse_scenario("workload: {synthetic: mlp}\n"
                                             "platform: {disk: {bandwidth: 1000000B/s}}\n"
                                             "policy: {allocator: os, swap: {mode: async, select: optimizer_state, prefetch: eager}}\n",
                                             "test");
    const RunResult r = simulate(s.w, scenario);
    CHECK(r.summary.status == "ok");
    CHECK(r.summary.bytes_written == 2000);
    CHECK(r.summary.bytes_read == 2000);
    CHECK(r.summary.time_ms == Approx(70.0).epsilon(1e-12));
    const test::StorageCheckCounts counts = test::check_storage_reads(s.w, r);
    CHECK(counts.swapped_and_read == 1);
    // The live peak (4110 B at 60 ms) by role: W, g, M, and a and op2's output (no role: other).
    CHECK(r.summary.live_peak_bytes == 4110);
    REQUIRE(r.summary.live_peak_by_role.has_value());
    const std::vector<std::pair<TensorRole, std::uint64_t>> by_role = {
        {TensorRole::parameter, 1000}, {TensorRole::gradient, 1000}, {TensorRole::optimizer_state, 2000},
        {TensorRole::activation, 0},   {TensorRole::input, 0},       {TensorRole::other, 110}};
    CHECK(*r.summary.live_peak_by_role == by_role);
}
