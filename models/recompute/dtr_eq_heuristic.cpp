#include "models/recompute/dtr_eq_heuristic.h"

#include <algorithm>
#include <limits>

namespace memsim {

int DtrEqHeuristic::find_root(int node) {
    int root = node;
    while (nodes_[root].parent >= 0) root = nodes_[root].parent;
    while (nodes_[node].parent >= 0) {  // path compression
        const int next = nodes_[node].parent;
        nodes_[node].parent = root;
        node = next;
    }
    return root;
}

double DtrEqHeuristic::group_cost(TensorId t) {
    if (t < 0 || t >= static_cast<TensorId>(node_of_.size()) || node_of_[t] < 0) return 0.0;
    return nodes_[find_root(node_of_[t])].cost;
}

void DtrEqHeuristic::on_evicted(const EvictionView& view, TensorId t) {
    const TensorGraph& g = graph_.get(view.workload());
    if (node_of_.size() < g.storage_of.size()) node_of_.resize(g.storage_of.size(), -1);
    const int node = static_cast<int>(nodes_.size());
    nodes_.push_back({-1, view.compute_cost_ms(t)});
    node_of_[t] = node;
    for (TensorId u : evicted_neighbours(view, g, t)) {
        if (node_of_[u] < 0) continue;
        const int left = find_root(node_of_[u]);
        const int right = find_root(node);
        if (left == right) continue;
        nodes_[left].parent = right;
        nodes_[right].cost += nodes_[left].cost;
    }
}

void DtrEqHeuristic::on_rematerialized(const EvictionView& view, TensorId t) {
    if (t >= static_cast<TensorId>(node_of_.size()) || node_of_[t] < 0) return;
    nodes_[find_root(node_of_[t])].cost -= view.compute_cost_ms(t);
    node_of_[t] = -1;
}

std::size_t DtrEqHeuristic::choose(const EvictionView& view, const std::vector<TensorId>& candidates) {
    const TensorGraph& g = graph_.get(view.workload());
    if (node_of_.size() < g.storage_of.size()) node_of_.resize(g.storage_of.size(), -1);
    std::vector<double> scores;
    scores.reserve(candidates.size());
    std::vector<int> roots;
    for (TensorId s : candidates) {
        double cost = view.compute_cost_ms(s);
        roots.clear();
        for (TensorId u : evicted_neighbours(view, g, s)) {
            if (node_of_[u] < 0) continue;
            const int root = find_root(node_of_[u]);
            if (std::find(roots.begin(), roots.end(), root) != roots.end()) continue;
            roots.push_back(root);
            cost += nodes_[root].cost;
        }
        const double denominator = static_cast<double>(view.workload().tensors[s].bytes) * staleness_ms(view, s);
        scores.push_back(denominator > 0 ? cost / denominator : std::numeric_limits<double>::infinity());
    }
    return pick_lowest_score(scores);
}

}  // namespace memsim
