// What no policy can go below (sim/app/run/memory_floor.h), on a hand-made workload whose
// floor is worked out by hand.
#include <catch2/catch.hpp>

#include "sim/app/run/memory_floor.h"
#include "test_support.h"

using namespace memsim;

namespace {

// op0 -> t0 (100 B); op1 reads t0 -> t1 (200 B), releases t0; op2 reads t1 -> t2 (50 B),
// releases t1. A weight W (1000 B) is resident from the start (op0 and op2 read it); a
// constant C (500 B) a DTR log declares mid-way arrives just before op2.
Workload with_constants() {
    Workload w = test::WorkloadBuilder().op(1, 100, {}, {}).op(1, 200, {0}, {0}).op(1, 50, {1}, {1}).build(1);
    const auto constant = [&](const char* name, std::uint64_t bytes) {
        Tensor t;
        t.name = name;
        t.bytes = bytes;
        t.constant = true;
        w.tensors.push_back(t);
        return static_cast<TensorId>(w.tensors.size() - 1);
    };
    const TensorId weight = constant("W", 1000), late = constant("C", 500);
    w.ops[0].inputs.push_back(weight);
    w.ops[2].inputs.push_back(weight);
    w.ops[2].inputs.push_back(late);
    w.ops[2].arrivals.push_back(late);
    return w;
}

}  // namespace

TEST_CASE("memory floor: constants from their arrival, plus the running operator's own tensors") {
    const MemoryFloor f = memory_floor(with_constants());
    // op0: W + t0 = 1100; op1: W + t0 + t1 = 1300; op2: W + C + t1 + t2 = 1750.
    CHECK(f.floor_bytes == 1750);
    CHECK(f.op == 2);
    CHECK(f.pinned_bytes == 1500);  // W and C, resident together from op2
}

TEST_CASE("memory floor: the note gives the constants' share of the peak and the floor against the budget") {
    const Workload w = with_constants();
    // Against a peak of 3000 B: 1500 / 3000 = 50%, 1750 / 3000 = 58%.
    CHECK(memory_floor_note(w, 3000, 1600) ==
          "constants (weights, inputs: tensors no eviction moves; a swap by role can, policy.swap.select: roles) are 50% of the no-policy peak (1.46 KiB of 2.93 KiB); "
          "with operator 2 'op2' running beside them no policy that keeps them on the GPU can go below 1.71 KiB (58% of the peak): the budget 1.56 KiB "
          "is below it");
    CHECK_THAT(*memory_floor_note(w, 3000, 2000), Catch::EndsWith("; the budget 1.95 KiB is above it, so another policy may fit"));
    // No constants: nothing to say.
    const Workload plain = test::WorkloadBuilder().op(1, 100, {}, {}).build(1);
    CHECK_FALSE(memory_floor_note(plain, 100, 50));
}

TEST_CASE("memory floor: constants of the roles a swap by role moves are not pinned") {
    Workload w = with_constants();
    w.tensors[3].role = TensorRole::parameter;  // W
    w.tensors[4].role = TensorRole::input;      // C
    // W moved: C alone is pinned (from op2). op0: t0 + W (its own input) = 1100; op1: t0 + t1
    // = 300; op2: C + t1 + t2 + W = 1750 (W is op2's input, resident while op2 runs).
    const MemoryFloor f = memory_floor(w, {TensorRole::parameter});
    CHECK(f.pinned_bytes == 500);
    CHECK(f.floor_bytes == 1750);
    CHECK(f.op == 2);
    // Everything moved: op1 needs only its own tensors.
    const MemoryFloor none = memory_floor(w, {TensorRole::parameter, TensorRole::input});
    CHECK(none.pinned_bytes == 0);
    CHECK(none.floor_bytes == 1750);  // op2's own tensors: W, C, t1, t2
    CHECK_THAT(*memory_floor_note(w, 3000, 1600, "os", {TensorRole::parameter}),
               Catch::StartsWith("constants (those this run's swap selection keeps on the GPU: roles other than parameter) are "
                                 "17% of the no-policy peak (500 B of 2.93 KiB)"));
    CHECK_FALSE(memory_floor_note(w, 3000, 1600, "os", {TensorRole::parameter, TensorRole::input}).has_value());
}
