#include "models/recompute/lru_heuristic.h"

namespace memsim {

std::size_t LruHeuristic::choose(const EvictionView& view, const std::vector<TensorId>& candidates) {
    std::vector<double> scores;
    scores.reserve(candidates.size());
    for (TensorId s : candidates) scores.push_back(view.last_access_ms(s));
    return pick_lowest_score(scores);
}

}  // namespace memsim
