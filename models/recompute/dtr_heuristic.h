// h_DTR: cost / (size * staleness), cost = own compute + compute of the exact evicted
// neighbourhood in both directions (evicted storages reachable through evicted ones).
#pragma once

#include "models/recompute/eviction_heuristic.h"
#include "models/recompute/tensor_graph.h"

namespace memsim {

class DtrHeuristic final : public EvictionHeuristic {
public:
    [[nodiscard]] std::string name() const override { return "dtr"; }
    std::size_t choose(const EvictionView& view, const std::vector<TensorId>& candidates) override;

private:
    TensorGraphCache graph_;
};

}  // namespace memsim
