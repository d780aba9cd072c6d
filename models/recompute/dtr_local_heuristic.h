// h_DTR_local: own compute / (size * staleness).
#pragma once

#include "models/recompute/eviction_heuristic.h"
#include "models/recompute/tensor_graph.h"

namespace memsim {

class DtrLocalHeuristic final : public EvictionHeuristic {
public:
    [[nodiscard]] std::string name() const override { return "dtr_local"; }
    std::size_t choose(const EvictionView& view, const std::vector<TensorId>& candidates) override;
};

}  // namespace memsim
