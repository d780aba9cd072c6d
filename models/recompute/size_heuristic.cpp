#include "models/recompute/size_heuristic.h"

#include <limits>

namespace memsim {

std::size_t SizeHeuristic::choose(const EvictionView& view, const std::vector<TensorId>& candidates) {
    std::vector<double> scores;
    scores.reserve(candidates.size());
    for (TensorId s : candidates) {
        const auto bytes = static_cast<double>(view.workload().tensors[s].bytes);
        scores.push_back(bytes > 0 ? 1.0 / bytes : std::numeric_limits<double>::infinity());
    }
    return pick_lowest_score(scores);
}

}  // namespace memsim
