#include <limits>

#include "models/recompute/scored_heuristic.h"

namespace memsim {

double msps_score(const ScoreInput& in, TensorId t) {
    const double cost = in.view.compute_cost_ms(t) + evicted_region_cost(in.view, in.graph(), t, false, true);
    const auto bytes = static_cast<double>(in.view.workload().tensors[t].bytes);
    return bytes > 0 ? cost / bytes : std::numeric_limits<double>::infinity();
}

}  // namespace memsim
