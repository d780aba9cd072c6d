#include "models/recompute/scored_heuristic.h"

namespace memsim {

double dtr_local_cost(const ScoreInput& in, TensorId t) { return in.view.compute_cost_ms(t); }

double dtr_local_score(const ScoreInput& in, TensorId t) { return staleness_score_of(in, t, dtr_local_cost(in, t)); }

}  // namespace memsim
