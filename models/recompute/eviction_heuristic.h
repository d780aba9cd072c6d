// Which resident tensor to evict when an allocation does not fit the budget
// (docs/semantics.md, Recomputation). The engine owns the state and the eviction loop; a heuristic
// only scores. Candidates are given in insertion order (the order in which they
// last became resident), so "most recently inserted" is the last one.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "models/policy_table.h"
#include "models/workload/workload.h"

namespace memsim {

// What a heuristic may look at; implemented by the engine's memory manager.
class EvictionView {
public:
    virtual ~EvictionView() = default;
    [[nodiscard]] virtual const Workload& workload() const = 0;
    [[nodiscard]] virtual double now_ms() const = 0;                  // the policy's clock
    [[nodiscard]] virtual bool resident(TensorId t) const = 0;
    [[nodiscard]] virtual bool evicted(TensorId t) const = 0;         // dropped, recomputable
    [[nodiscard]] virtual double last_access_ms(TensorId t) const = 0;
    [[nodiscard]] virtual int recompute_count(TensorId t) const = 0;
    [[nodiscard]] virtual double compute_cost_ms(TensorId t) const = 0;  // its producer's cost
    [[nodiscard]] virtual std::uint64_t free_neighbour_bytes(TensorId t) const = 0;
    // A view that keeps evicted() as a byte and compute_cost_ms() as a double per storage
    // (indexed by the storage's id, the root of its alias chain: TensorGraph::storage_of)
    // gives the two arrays here, and the evicted-region walks (tensor_graph.h) read them
    // instead of making two virtual calls per storage they visit: the DTR reference
    // runtime's walks took half as long. Empty (the default): the walks call.
    struct StorageArrays {
        const std::uint8_t* evicted = nullptr;
        const double* compute_cost_ms = nullptr;
    };
    [[nodiscard]] virtual StorageArrays storage_arrays() const { return {}; }
};

struct TensorGraph;

class EvictionHeuristic {
public:
    virtual ~EvictionHeuristic() = default;
    [[nodiscard]] virtual std::string name() const = 0;
    // Index into `candidates` of the tensor to evict (candidates is non-empty).
    virtual std::size_t choose(const EvictionView& view, const std::vector<TensorId>& candidates) = 0;
    // State updates for heuristics that track evicted groups (dtr, dtr_eq).
    virtual void on_evicted(const EvictionView& /*view*/, TensorId /*t*/) {}
    virtual void on_rematerialized(const EvictionView& /*view*/, TensorId /*t*/) {}

    // Heuristics whose score is staleness_score(cost(t), bytes(t), now, last access(t))
    // (models/recompute/staleness_score.h: dtr, dtr_local) give cost(t) here, so the
    // engine can keep its candidates in a StalenessTournament and make the same choice
    // without scoring each at every eviction (sim/engine/eviction_index.h).
    [[nodiscard]] virtual bool has_staleness_cost() const { return false; }
    virtual double staleness_cost(const EvictionView& /*view*/, TensorId /*t*/) { return 0.0; }
    // The graph whose evicted regions staleness_cost reads (dtr), or nullptr when it reads
    // the tensor alone (dtr_local).
    virtual const TensorGraph* staleness_cost_graph(const Workload& /*w*/) { return nullptr; }
};

// The table of `policy.recompute.heuristic`: one row per heuristic (name, one-line
// summary, factory, parameters: random's seed, megengine's exponents), in the order
// --help and the docs list them.
using EvictionHeuristicRow = PolicyRow<std::unique_ptr<EvictionHeuristic> (*)(const PolicyParams&)>;
std::span<const EvictionHeuristicRow> eviction_heuristic_table();

std::vector<std::string> eviction_heuristic_names();
// The heuristic with the `given` parameters, the row's defaults for the rest. Throws
// std::invalid_argument for an unknown name (listing the valid ones and the closest) or
// a parameter its row does not take.
std::unique_ptr<EvictionHeuristic> make_eviction_heuristic(const std::string& name, const ParamValues& given = {});

}  // namespace memsim
