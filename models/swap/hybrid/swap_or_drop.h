// policy.hybrid: an eviction the budget forces either swaps the tensor out or drops it
// for recomputation, whichever is estimated cheaper.
#pragma once

#include <cstdint>
#include <optional>

#include "models/workload/workload.h"

namespace memsim {

// What the rule may look at; implemented by the engine's memory manager.
class SwapOrDropView {
public:
    virtual ~SwapOrDropView() = default;
    [[nodiscard]] virtual const Workload& workload() const = 0;
    [[nodiscard]] virtual bool resident(TensorId t) const = 0;
    [[nodiscard]] virtual bool on_disk(TensorId t) const = 0;  // swapped out: read back when needed
    [[nodiscard]] virtual double compute_cost_ms(TensorId t) const = 0;  // its producer's cost (speed scale 1)
    [[nodiscard]] virtual double gpu_speed_scale() const = 0;
    [[nodiscard]] virtual std::optional<std::uint64_t> budget_bytes() const = 0;
    // The copy queue's own prediction for a swap-out at `op`: the wait until it drains plus
    // the tensor's write and its later read, to and from the tier it would go to.
    [[nodiscard]] virtual double swap_round_trip_ms(TensorId t, int op) const = 0;
};

// The bytes a recomputation of `t` holds at once, at least: the engine regenerates depth
// first, holding the producer's inputs while a missing one (dropped or freed, not on
// disk) is regenerated in turn, then runs the producer with all of them and its output.
// Each tensor counted once where paths share it (a lower bound, which is all the rule
// needs).
std::uint64_t regeneration_peak_bytes(const SwapOrDropView& view, TensorId t);

// Swapping costs the round trip (the GPU waits for the write, and the read is on
// demand); recomputing costs the producer's time plus that of producers of its inputs
// not resident now (one level). Ties recompute. A drop whose regeneration cannot fit in
// the budget at all (regeneration_peak_bytes above it) is swapped whatever the times:
// dropped, it would end the run out of memory when it is needed (docs/swap.md, "Hybrid").
bool swap_is_cheaper(const SwapOrDropView& view, TensorId t, int op);

}  // namespace memsim
