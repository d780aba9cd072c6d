#include <limits>

#include "models/recompute/scored_heuristic.h"

namespace memsim {

double dtr_local_score(const ScoreInput& in, TensorId t) {
    const double denominator = static_cast<double>(in.view.workload().tensors[t].bytes) * staleness_ms(in.view, t);
    return denominator > 0 ? in.view.compute_cost_ms(t) / denominator : std::numeric_limits<double>::infinity();
}

}  // namespace memsim
