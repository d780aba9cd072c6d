#include "models/recompute/msps_heuristic.h"

#include <limits>

namespace memsim {

std::size_t MspsHeuristic::choose(const EvictionView& view, const std::vector<TensorId>& candidates) {
    const TensorGraph& g = graph_.get(view.workload());
    std::vector<double> scores;
    scores.reserve(candidates.size());
    for (TensorId s : candidates) {
        const double cost = view.compute_cost_ms(s) + evicted_region_cost(view, g, s, false, true);
        const auto bytes = static_cast<double>(view.workload().tensors[s].bytes);
        scores.push_back(bytes > 0 ? cost / bytes : std::numeric_limits<double>::infinity());
    }
    return pick_lowest_score(scores);
}

}  // namespace memsim
