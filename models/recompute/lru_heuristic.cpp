#include "models/recompute/scored_heuristic.h"

namespace memsim {

double lru_score(const ScoreInput& in, TensorId t) { return in.view.last_access_ms(t); }

}  // namespace memsim
