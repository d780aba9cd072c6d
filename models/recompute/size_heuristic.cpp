#include <limits>

#include "models/recompute/scored_heuristic.h"

namespace memsim {

double size_score(const ScoreInput& in, TensorId t) {
    const auto bytes = static_cast<double>(in.view.workload().tensors[t].bytes);
    return bytes > 0 ? 1.0 / bytes : std::numeric_limits<double>::infinity();
}

}  // namespace memsim
