#include "models/recompute/scored_heuristic.h"

namespace memsim {

double dtr_cost(const ScoreInput& in, TensorId t) {
    return in.view.compute_cost_ms(t) + evicted_region_cost(in.view, in.graph(), t, true, true);
}

double dtr_score(const ScoreInput& in, TensorId t) { return staleness_score_of(in, t, dtr_cost(in, t)); }

}  // namespace memsim
