// policy.hybrid: an eviction the budget forces either swaps the tensor out or drops it
// for recomputation, whichever is estimated cheaper.
#pragma once

#include "models/workload/workload.h"

namespace memsim {

// What the rule may look at; implemented by the engine's memory manager.
class SwapOrDropView {
public:
    virtual ~SwapOrDropView() = default;
    [[nodiscard]] virtual const Workload& workload() const = 0;
    [[nodiscard]] virtual bool resident(TensorId t) const = 0;
    [[nodiscard]] virtual double compute_cost_ms(TensorId t) const = 0;  // its producer's cost (speed scale 1)
    [[nodiscard]] virtual double gpu_speed_scale() const = 0;
    // The disk queue's own prediction: the wait until it drains plus the tensor's write
    // and its later read.
    [[nodiscard]] virtual double swap_round_trip_ms(TensorId t) const = 0;
};

// Swapping costs the round trip (the GPU waits for the write, and the read is on
// demand); recomputing costs the producer's time plus that of producers of its inputs
// not resident now (one level: what the recomputation would have to regenerate first).
// Ties recompute.
bool swap_is_cheaper(const SwapOrDropView& view, TensorId t);

}  // namespace memsim
