#include "models/recompute/tensor_graph.h"

#include <algorithm>
#include <limits>

namespace memsim {

namespace {

void add_unique(std::vector<TensorId>& list, TensorId t) {
    if (std::find(list.begin(), list.end(), t) == list.end()) list.push_back(t);
}

Adjacency flattened(const std::vector<std::vector<TensorId>>& lists) {
    Adjacency a;
    a.offsets.reserve(lists.size() + 1);
    a.offsets.push_back(0);
    for (const std::vector<TensorId>& list : lists) {
        a.items.insert(a.items.end(), list.begin(), list.end());
        a.offsets.push_back(static_cast<std::uint32_t>(a.items.size()));
    }
    return a;
}

}  // namespace

TensorGraph build_tensor_graph(const Workload& w) {
    const auto n = w.tensors.size();
    TensorGraph g;
    g.storage_of = storage_map(w);
    std::vector<std::vector<TensorId>> parents(n), children(n);
    for (const Op& op : w.ops) {
        for (TensorId out : op.outputs) {
            const TensorId so = g.storage_of[out];
            for (TensorId in : op.inputs) {
                const TensorId si = g.storage_of[in];
                if (si == so) continue;
                add_unique(parents[so], si);
                add_unique(children[si], so);
            }
        }
    }
    g.parents = flattened(parents);
    g.children = flattened(children);
    return g;
}

const TensorGraph& TensorGraphCache::get(const Workload& w) {
    if (owner_ != &w) {
        graph_ = build_tensor_graph(w);
        owner_ = &w;
    }
    return graph_;
}

namespace {

// Starts a walk: returns its epoch; a storage is visited when its mark equals it.
std::uint32_t new_walk(const TensorGraph& g) {
    if (g.visit_mark.size() != g.storage_of.size() || g.visit_epoch == std::numeric_limits<std::uint32_t>::max()) {
        g.visit_mark.assign(g.storage_of.size(), 0);
        g.visit_epoch = 0;
    }
    return ++g.visit_epoch;
}

}  // namespace

namespace {

// Adds to `cost` the compute cost of the evicted storages reachable from `s` through
// evicted storages along `next`, in the order of a depth-first walk. `evicted` and
// `cost_of` read the view, through its arrays where it has them (the same answers).
template <class Evicted, class CostOf>
void add_region_cost(const TensorGraph& g, TensorId s, const Adjacency& next, double& cost, Evicted evicted, CostOf cost_of) {
    const std::uint32_t epoch = new_walk(g);
    // The marks' array and the sum in locals: through the graph's vector and the caller's
    // reference the compiler reloaded and stored them around every virtual call of the
    // view (a fifth of this walk's cycles; it is most of the DTR reference runtime's).
    std::uint32_t* const mark = g.visit_mark.data();
    std::vector<TensorId>& stack = g.walk_stack;
    double sum = cost;  // the same additions in the same order
    mark[s] = epoch;
    stack.assign(1, s);
    while (!stack.empty()) {
        const TensorId cur = stack.back();
        stack.pop_back();
        for (TensorId u : next.of(cur)) {
            if (mark[u] == epoch || !evicted(u)) continue;
            mark[u] = epoch;
            sum += cost_of(u);
            stack.push_back(u);
        }
    }
    cost = sum;
}

void add_region_cost(const EvictionView& view, const TensorGraph& g, TensorId s, const Adjacency& next, double& cost) {
    if (const EvictionView::StorageArrays a = view.storage_arrays(); a.evicted && a.compute_cost_ms) {
        add_region_cost(
            g, s, next, cost, [e = a.evicted](TensorId u) { return e[u] != 0; },
            [c = a.compute_cost_ms](TensorId u) { return c[u]; });
    } else {
        add_region_cost(
            g, s, next, cost, [&view](TensorId u) { return view.evicted(u); },
            [&view](TensorId u) { return view.compute_cost_ms(u); });
    }
}

}  // namespace

double evicted_region_cost(const EvictionView& view, const TensorGraph& g, TensorId s, bool forward, bool backward) {
    // Forward and backward regions are walked separately (a forward region never turns
    // back), as the DTR runtime's two regions do.
    double cost = 0.0;
    if (forward) add_region_cost(view, g, s, g.children, cost);
    if (backward) add_region_cost(view, g, s, g.parents, cost);
    return cost;
}

std::vector<TensorId> evicted_neighbours(const EvictionView& view, const TensorGraph& g, TensorId s) {
    std::vector<TensorId> out;
    for (TensorId u : g.parents.of(s))
        if (u != s && view.evicted(u)) add_unique(out, u);
    for (TensorId u : g.children.of(s))
        if (u != s && view.evicted(u)) add_unique(out, u);
    return out;
}

std::size_t pick_lowest_score(const std::vector<double>& scores) {
    std::size_t best = 0;
    double best_score = std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < scores.size(); ++i) {
        if (scores[i] <= best_score) {
            best_score = scores[i];
            best = i;
        }
        if (scores[i] == 0.0) break;
    }
    return best;
}

double staleness_ms(const EvictionView& view, TensorId t) { return view.now_ms() - view.last_access_ms(t); }

}  // namespace memsim
