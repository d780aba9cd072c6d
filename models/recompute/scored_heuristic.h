// Eviction heuristics that only score (dtr, dtr_local, msps, lru, size, megengine): each
// is one scoring function in its own file and one row of the table in
// eviction_heuristic.cpp; ScoredHeuristic runs any of them. The candidate with the lowest
// score goes, ties and zeros as pick_lowest_score says. Heuristics that keep state
// between evictions (dtr_eq's groups, random's stream) stay classes.
#pragma once

#include <string>
#include <vector>

#include "models/recompute/eviction_heuristic.h"
#include "models/recompute/tensor_graph.h"

namespace memsim {

// What a score may read: the engine's view, the tensor graph (built on first use) and
// the scenario's parameters.
struct ScoreInput {
    const EvictionView& view;
    TensorGraphCache& graphs;
    const PolicyParams& params;  // the row's parameters (megengine's exponents)
    [[nodiscard]] const TensorGraph& graph() const { return graphs.get(view.workload()); }
};

using ScoreFunction = double (*)(const ScoreInput& in, TensorId t);
// The cost of a staleness-form score (staleness_score.h).
using CostFunction = double (*)(const ScoreInput& in, TensorId t);

class ScoredHeuristic final : public EvictionHeuristic {
public:
    ScoredHeuristic(std::string name, ScoreFunction score_function, PolicyParams params)
        : name_(std::move(name)), score_(score_function), params_(std::move(params)) {}
    // A staleness-form heuristic: `score_function` must be staleness_score of `cost`; `reads_regions`
    // when the cost reads the evicted neighbourhood.
    ScoredHeuristic(std::string name, ScoreFunction score_function, CostFunction cost, bool reads_regions, PolicyParams params)
        : name_(std::move(name)), score_(score_function), cost_(cost), reads_regions_(reads_regions), params_(std::move(params)) {}
    [[nodiscard]] std::string name() const override { return name_; }
    std::size_t choose(const EvictionView& view, const std::vector<TensorId>& candidates) override;
    [[nodiscard]] double score(const EvictionView& view, TensorId t);

    [[nodiscard]] bool has_staleness_cost() const override { return cost_ != nullptr; }
    double staleness_cost(const EvictionView& view, TensorId t) override;
    const TensorGraph* staleness_cost_graph(const Workload& w) override { return reads_regions_ ? &graphs_.get(w) : nullptr; }

private:
    std::string name_;
    ScoreFunction score_;
    CostFunction cost_ = nullptr;
    bool reads_regions_ = false;
    PolicyParams params_;
    TensorGraphCache graphs_;
};

// h_DTR: cost / (size x staleness), cost = own compute + compute of the exact evicted
// neighbourhood in both directions (evicted storages reachable through evicted ones).
double dtr_score(const ScoreInput& in, TensorId t);
double dtr_cost(const ScoreInput& in, TensorId t);
// h_DTR_local: own compute / (size x staleness).
double dtr_local_score(const ScoreInput& in, TensorId t);
double dtr_local_cost(const ScoreInput& in, TensorId t);
// staleness_score of a tensor with the given cost.
double staleness_score_of(const ScoreInput& in, TensorId t, double cost);
// h_MSPS (memory saved per second, as a cost): (own compute + compute of the evicted
// ancestors needed to recompute it) / size; no staleness.
double msps_score(const ScoreInput& in, TensorId t);
// h_LRU: the least recently accessed (the last access is the score).
double lru_score(const ScoreInput& in, TensorId t);
// h_size: the largest storage (score 1 / size).
double size_score(const ScoreInput& in, TensorId t);
// MegEngine's DTR evaluation function (docs/recompute.md), lowest wins:
//   (cost + 1e-3)^a * b^recompute_times / ((size + free_neighbour_bytes)^c * (now - last_access + 1e-3)^d)
// cost = own compute + compute of the exact evicted neighbourhood (both directions), as
// MegEngine adds its neighbours' estimated cost to the tensor's own.
double megengine_score(const ScoreInput& in, TensorId t);

}  // namespace memsim
