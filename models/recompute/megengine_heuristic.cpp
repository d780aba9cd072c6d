#include "models/recompute/megengine_heuristic.h"

#include <cmath>

namespace memsim {

double MegEngineHeuristic::score(const EvictionView& view, TensorId t) {
    const TensorGraph& g = graph_.get(view.workload());
    const double cost = view.compute_cost_ms(t) + evicted_region_cost(view, g, t, true, true);
    const double bytes = static_cast<double>(view.workload().tensors[t].bytes) +
                         static_cast<double>(view.free_neighbour_bytes(t));
    const double numerator = std::pow(cost + 1e-3, params_.a) * std::pow(params_.b, view.recompute_count(t));
    const double denominator = std::pow(bytes, params_.c) * std::pow(staleness_ms(view, t) + 1e-3, params_.d);
    return numerator / denominator;
}

std::size_t MegEngineHeuristic::choose(const EvictionView& view, const std::vector<TensorId>& candidates) {
    std::vector<double> scores;
    scores.reserve(candidates.size());
    for (TensorId s : candidates) scores.push_back(score(view, s));
    return pick_lowest_score(scores);
}

}  // namespace memsim
