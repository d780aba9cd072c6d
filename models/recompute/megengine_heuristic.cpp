#include <cmath>

#include "models/recompute/scored_heuristic.h"

namespace memsim {

double megengine_score(const ScoreInput& in, TensorId t) {
    const EvictionView& view = in.view;
    const PolicyParams& p = in.params;
    const double cost = view.compute_cost_ms(t) + evicted_region_cost(view, in.graph(), t, true, true);
    const double bytes = static_cast<double>(view.workload().tensors[t].bytes) + static_cast<double>(view.free_neighbour_bytes(t));
    const double numerator = std::pow(cost + 1e-3, p.number("a")) * std::pow(p.number("b"), view.recompute_count(t));
    const double denominator = std::pow(bytes, p.number("c")) * std::pow(staleness_ms(view, t) + 1e-3, p.number("d"));
    return numerator / denominator;
}

}  // namespace memsim
