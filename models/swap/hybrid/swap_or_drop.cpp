#include "models/swap/hybrid/swap_or_drop.h"

namespace memsim {

bool swap_is_cheaper(const SwapOrDropView& view, TensorId t) {
    const Workload& w = view.workload();
    const double swap_ms = view.swap_round_trip_ms(t);
    double recompute_ms = view.compute_cost_ms(t);
    const int p = w.tensors[t].producer;
    if (p != kNoOp)
        for (TensorId in : w.ops[p].inputs)
            if (!view.resident(in)) recompute_ms += view.compute_cost_ms(in);
    return swap_ms < recompute_ms / view.gpu_speed_scale();
}

}  // namespace memsim
