// h_size: the largest storage (score 1/size).
#pragma once

#include "models/recompute/eviction_heuristic.h"
#include "models/recompute/tensor_graph.h"

namespace memsim {

class SizeHeuristic final : public EvictionHeuristic {
public:
    [[nodiscard]] std::string name() const override { return "size"; }
    std::size_t choose(const EvictionView& view, const std::vector<TensorId>& candidates) override;
};

}  // namespace memsim
