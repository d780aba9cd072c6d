#include "models/recompute/scored_heuristic.h"

#include "models/recompute/staleness_score.h"

namespace memsim {

double ScoredHeuristic::score(const EvictionView& view, TensorId t) {
    return score_(ScoreInput{view, graphs_, params_}, t);
}

double ScoredHeuristic::staleness_cost(const EvictionView& view, TensorId t) {
    return cost_(ScoreInput{view, graphs_, params_}, t);
}

double staleness_score_of(const ScoreInput& in, TensorId t, double cost) {
    return staleness_score(cost, static_cast<double>(in.view.workload().tensors[t].bytes), in.view.now_ms(),
                           in.view.last_access_ms(t));
}

std::size_t ScoredHeuristic::choose(const EvictionView& view, const std::vector<TensorId>& candidates) {
    const ScoreInput in{view, graphs_, params_};
    std::vector<double> scores;
    scores.reserve(candidates.size());
    for (TensorId t : candidates) scores.push_back(score_(in, t));
    return pick_lowest_score(scores);
}

}  // namespace memsim
