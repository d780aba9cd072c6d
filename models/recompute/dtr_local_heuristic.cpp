#include "models/recompute/dtr_local_heuristic.h"

#include <limits>

namespace memsim {

std::size_t DtrLocalHeuristic::choose(const EvictionView& view, const std::vector<TensorId>& candidates) {
    std::vector<double> scores;
    scores.reserve(candidates.size());
    for (TensorId s : candidates) {
        const double denominator = static_cast<double>(view.workload().tensors[s].bytes) * staleness_ms(view, s);
        scores.push_back(denominator > 0 ? view.compute_cost_ms(s) / denominator
                                         : std::numeric_limits<double>::infinity());
    }
    return pick_lowest_score(scores);
}

}  // namespace memsim
