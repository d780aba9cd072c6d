#include <limits>

#include "models/recompute/scored_heuristic.h"

namespace memsim {

double dtr_score(const ScoreInput& in, TensorId t) {
    const double cost = in.view.compute_cost_ms(t) + evicted_region_cost(in.view, in.graph(), t, true, true);
    const double denominator = static_cast<double>(in.view.workload().tensors[t].bytes) * staleness_ms(in.view, t);
    return denominator > 0 ? cost / denominator : std::numeric_limits<double>::infinity();
}

}  // namespace memsim
