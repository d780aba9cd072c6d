// h_MSPS (memory saved per second, as a cost): (own compute + compute of the evicted
// ancestors needed to recompute it) / size; no staleness.
#pragma once

#include "models/recompute/eviction_heuristic.h"
#include "models/recompute/tensor_graph.h"

namespace memsim {

class MspsHeuristic final : public EvictionHeuristic {
public:
    [[nodiscard]] std::string name() const override { return "msps"; }
    std::size_t choose(const EvictionView& view, const std::vector<TensorId>& candidates) override;

private:
    TensorGraphCache graph_;
};

}  // namespace memsim
