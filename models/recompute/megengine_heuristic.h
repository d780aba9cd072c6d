// MegEngine's DTR evaluation function (SPEC section 5), lowest wins:
//   (cost + 1e-3)^a * b^recompute_times / ((size + free_neighbour_bytes)^c * (now - last_access + 1e-3)^d)
// cost = own compute + compute of the exact evicted neighbourhood (both directions), as
// MegEngine adds its neighbours' estimated cost to the tensor's own.
#pragma once

#include "models/recompute/eviction_heuristic.h"
#include "models/recompute/tensor_graph.h"

namespace memsim {

class MegEngineHeuristic final : public EvictionHeuristic {
public:
    explicit MegEngineHeuristic(const HeuristicParams& params) : params_(params) {}
    [[nodiscard]] std::string name() const override { return "megengine"; }
    std::size_t choose(const EvictionView& view, const std::vector<TensorId>& candidates) override;
    [[nodiscard]] double score(const EvictionView& view, TensorId t);

private:
    HeuristicParams params_;
    TensorGraphCache graph_;
};

}  // namespace memsim
