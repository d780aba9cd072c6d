#include "models/recompute/scored_heuristic.h"

namespace memsim {

double ScoredHeuristic::score(const EvictionView& view, TensorId t) {
    return score_(ScoreInput{view, graphs_, params_}, t);
}

std::size_t ScoredHeuristic::choose(const EvictionView& view, const std::vector<TensorId>& candidates) {
    const ScoreInput in{view, graphs_, params_};
    std::vector<double> scores;
    scores.reserve(candidates.size());
    for (TensorId t : candidates) scores.push_back(score_(in, t));
    return pick_lowest_score(scores);
}

}  // namespace memsim
