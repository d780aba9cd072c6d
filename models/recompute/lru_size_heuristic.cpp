// lru_size: the least recently accessed per byte^weight: old and large tensors go first.
#include <cmath>

#include "models/recompute/scored_heuristic.h"

namespace memsim {

double lru_size_score(const ScoreInput& in, TensorId t) {
    const double bytes = static_cast<double>(in.view.workload().tensors[t].bytes);
    return (in.view.last_access_ms(t) + 1.0) / std::pow(std::max(bytes, 1.0), in.params.number("weight"));
}

}  // namespace memsim
