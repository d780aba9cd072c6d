#include "models/recompute/dtr_heuristic.h"

#include <limits>

namespace memsim {

std::size_t DtrHeuristic::choose(const EvictionView& view, const std::vector<TensorId>& candidates) {
    const TensorGraph& g = graph_.get(view.workload());
    std::vector<double> scores;
    scores.reserve(candidates.size());
    for (TensorId s : candidates) {
        const double cost = view.compute_cost_ms(s) + evicted_region_cost(view, g, s, true, true);
        const double denominator = static_cast<double>(view.workload().tensors[s].bytes) * staleness_ms(view, s);
        scores.push_back(denominator > 0 ? cost / denominator : std::numeric_limits<double>::infinity());
    }
    return pick_lowest_score(scores);
}

}  // namespace memsim
