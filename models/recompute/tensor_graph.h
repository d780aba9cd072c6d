// Storage-level adjacency of a workload for heuristics that look at evicted
// neighbourhoods (dtr, dtr_eq, msps, megengine). Aliases are folded into the tensor
// whose storage they share, as the DTR runtime does: a storage's parents/children are
// the union over the tensors living in it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "models/recompute/eviction_heuristic.h"

namespace memsim {

// A storage's neighbours in one flat array (offsets[s] .. offsets[s + 1]): the walks of
// evicted_region_cost read them one storage after another, and a vector per storage put
// each list in a heap block of its own (the DTR reference runtime on the lstm log spent
// most of its time waiting for them).
struct Adjacency {
    std::vector<std::uint32_t> offsets;
    std::vector<TensorId> items;
    [[nodiscard]] std::span<const TensorId> of(TensorId s) const {
        return {items.data() + offsets[static_cast<std::size_t>(s)], items.data() + offsets[static_cast<std::size_t>(s) + 1]};
    }
};

struct TensorGraph {
    std::vector<TensorId> storage_of;  // tensor -> root of its alias chain
    Adjacency parents;                 // storage -> storages of its producers' inputs
    Adjacency children;                // storage -> storages produced by its consumers

    // Scratch of evicted_region_cost, kept between calls: a walk marks what it visited
    // with a fresh epoch instead of clearing an array of every storage, so scoring one
    // candidate costs its region, not the workload (DTR scores every resident tensor
    // per eviction).
    mutable std::vector<std::uint32_t> visit_mark;
    mutable std::uint32_t visit_epoch = 0;
    mutable std::vector<TensorId> walk_stack;
};

TensorGraph build_tensor_graph(const Workload& w);

// Rebuilt only when the heuristic is used with another workload.
class TensorGraphCache {
public:
    const TensorGraph& get(const Workload& w);

private:
    const Workload* owner_ = nullptr;
    TensorGraph graph_;
};

// Sum of compute_cost_ms over the evicted storages reachable from `s` through evicted
// storages only, forward (children) and/or backward (parents); `s` itself excluded.
double evicted_region_cost(const EvictionView& view, const TensorGraph& g, TensorId s, bool forward, bool backward);

// Evicted direct neighbours (parents and children) of `s`, each once, `s` excluded.
std::vector<TensorId> evicted_neighbours(const EvictionView& view, const TensorGraph& g, TensorId s);

// The published DTR runtime's selection rule: the lowest score wins, among equal
// scores the last candidate (most recently inserted); a score of exactly 0 is taken at
// once (the first such candidate), as the runtime stops scanning there.
std::size_t pick_lowest_score(const std::vector<double>& scores);

// now - last access, in the view's clock.
double staleness_ms(const EvictionView& view, TensorId t);

}  // namespace memsim
