// The hybrid's per-eviction rule on a hand-set state (models/swap/hybrid/swap_or_drop.h).
#include <catch2/catch.hpp>
#include <map>
#include <optional>

#include "models/swap/hybrid/swap_or_drop.h"

using namespace memsim;

namespace {

enum class At { Resident, OnDisk, Gone };  // Gone: dropped or freed

struct FakeState final : SwapOrDropView {
    Workload w;
    std::map<TensorId, At> at;
    double round_trip = 0, speed = 1;
    std::optional<std::uint64_t> budget;
    const Workload& workload() const override { return w; }
    bool resident(TensorId t) const override { return at.at(t) == At::Resident; }
    bool on_disk(TensorId t) const override { return at.at(t) == At::OnDisk; }
    double compute_cost_ms(TensorId t) const override {
        const int p = w.tensors[t].producer;
        return p == kNoOp ? 0.0 : w.ops[p].cost_ms;
    }
    double gpu_speed_scale() const override { return speed; }
    std::optional<std::uint64_t> budget_bytes() const override { return budget; }
    double swap_round_trip_ms(TensorId, int) const override { return round_trip; }
};

// Ops 0..4 costing 1, 2, 4, 8, 16 ms: op k makes tensor k+1 from tensor k (tensor 0 an
// input), op 4 also reads tensor 2: a chain with one shared ancestor.
FakeState chain() {
    FakeState s;
    s.w.tensors.resize(6);
    for (int k = 0; k < 5; ++k) {
        Op op;
        op.cost_ms = static_cast<double>(1 << k);
        op.inputs = {k};
        if (k == 4) op.inputs.push_back(2);
        op.outputs = {k + 1};
        s.w.ops.push_back(op);
        s.w.tensors[static_cast<std::size_t>(k + 1)].producer = k;
    }
    for (TensorId t = 0; t <= 5; ++t) s.at[t] = At::Resident;
    return s;
}

}  // namespace

TEST_CASE("hybrid rule: the bytes a regeneration holds at its deepest point") {
    // Tensor sizes: 0:1 1:2 2:4 3:8 4:16 5:32 B (tensor k is 2^k bytes).
    FakeState s = chain();
    for (TensorId t = 0; t <= 5; ++t) s.w.tensors[static_cast<std::size_t>(t)].bytes = 1u << t;
    // Inputs resident: op 4 with its inputs (4 and 2) and its output: 16 + 4 + 32.
    CHECK(regeneration_peak_bytes(s, 5) == 52u);
    // Tensor 4 dropped: while it is regenerated op 4 holds tensor 2 (4 B) and op 3 holds
    // its input 3 and output 4 (8 + 16): 28; then op 4 runs: 52. Peak 52.
    s.at[4] = At::Gone;
    CHECK(regeneration_peak_bytes(s, 5) == 52u);
    // Tensors 4, 3 and 2 gone: peak(2) = 2 + 4 = 6 (op 1, tensor 1 resident); peak(3) =
    // max(4 + 8, 4 - 4 + 6) = 12; peak(4) = max(8 + 16, 8 - 8 + 12) = 24; op 4 holds 20 B
    // of inputs: through 4, 20 - 16 + 24 = 28; through 2, 20 - 4 + 6 = 22; op 4 itself 52.
    s.at[3] = At::Gone;
    s.at[2] = At::Gone;
    CHECK(regeneration_peak_bytes(s, 5) == 52u);
    // Op 3 also reads a big resident tensor (0, now 100 B): the deep path is the peak.
    s.w.ops[3].inputs.push_back(0);
    s.w.tensors[0].bytes = 100;
    // peak(4) = max(8 + 100 + 16, 108 - 8 + peak(3) = 100 + 12) = 124; through 4 at op 4:
    // 20 - 16 + 124 = 128 > 52.
    CHECK(regeneration_peak_bytes(s, 5) == 128u);
    // On disk is read back, not regenerated: tensor 3 on disk ends the path there.
    s.at[3] = At::OnDisk;
    CHECK(regeneration_peak_bytes(s, 5) == 128u);  // op 3 still holds 100 + 8 + 16
}

TEST_CASE("hybrid rule: swap when the round trip is below the recompute cost at the device speed, ties recompute, "
          "and always when the regeneration cannot fit in the budget") {
    FakeState s = chain();
    s.at[4] = At::Gone;  // recomputing tensor 5: op 4 (16 ms) + tensor 4's producer (8 ms)
    s.round_trip = 23.9;
    CHECK(swap_is_cheaper(s, 5, 0));
    s.round_trip = 24.0;
    CHECK_FALSE(swap_is_cheaper(s, 5, 0));
    s.speed = 2;  // a device twice as fast: 12 ms
    s.round_trip = 12.5;
    CHECK_FALSE(swap_is_cheaper(s, 5, 0));
    s.round_trip = 11.5;
    CHECK(swap_is_cheaper(s, 5, 0));
    // Sizes 2^k: the regeneration of tensor 5 holds 52 B. A 60 B budget lets it drop; at
    // 51 B it would never be regenerated: swapped although the disk is slower.
    for (TensorId t = 0; t <= 5; ++t) s.w.tensors[static_cast<std::size_t>(t)].bytes = 1u << t;
    s.round_trip = 100;
    s.budget = 60;
    CHECK_FALSE(swap_is_cheaper(s, 5, 0));
    s.budget = 51;
    CHECK(swap_is_cheaper(s, 5, 0));
    s.budget.reset();  // no budget (a cap elsewhere): time alone
    CHECK_FALSE(swap_is_cheaper(s, 5, 0));
}
