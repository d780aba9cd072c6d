// h_LRU: the least recently accessed (smallest last access).
#pragma once

#include "models/recompute/eviction_heuristic.h"
#include "models/recompute/tensor_graph.h"

namespace memsim {

class LruHeuristic final : public EvictionHeuristic {
public:
    [[nodiscard]] std::string name() const override { return "lru"; }
    std::size_t choose(const EvictionView& view, const std::vector<TensorId>& candidates) override;
};

}  // namespace memsim
