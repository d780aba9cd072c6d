// h_DTR^eq: cost / (size * staleness) with the evicted neighbourhood approximated by
// union-find groups: an evicted tensor starts a group with its own compute and merges
// with the groups of its evicted neighbours; a recomputed tensor subtracts its compute
// from its group and leaves it (groups never split). A candidate's cost is its own
// compute plus the value of each distinct group among its evicted neighbours.
#pragma once

#include <vector>

#include "models/recompute/eviction_heuristic.h"
#include "models/recompute/tensor_graph.h"

namespace memsim {

class DtrEqHeuristic final : public EvictionHeuristic {
public:
    [[nodiscard]] std::string name() const override { return "dtr_eq"; }
    std::size_t choose(const EvictionView& view, const std::vector<TensorId>& candidates) override;
    void on_evicted(const EvictionView& view, TensorId t) override;
    void on_rematerialized(const EvictionView& view, TensorId t) override;

    // The current value of the group `t` belongs to (0 when it is in none); for tests.
    [[nodiscard]] double group_cost(TensorId t);

private:
    struct Node {
        int parent = -1;  // -1: root
        double cost = 0.0;
    };
    int find_root(int node);
    TensorGraphCache graph_;
    std::vector<Node> nodes_;
    std::vector<int> node_of_;  // tensor -> its group node, -1 while resident
};

}  // namespace memsim
