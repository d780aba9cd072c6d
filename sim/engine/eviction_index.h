// The candidate a staleness-form heuristic (dtr, dtr_local) picks, kept up to date as the
// run changes instead of scored afresh at every eviction: scoring every resident tensor
// at each eviction made DTR quadratic in the workload's length (docs/performance.md).
//
// The candidates are the tensors of the evictable order that are evictable, in that
// order, each in a slot of a StalenessTournament with its cost and last access. Only
// tensors whose state changed are re-read (TensorTable::take_changed), and the
// evictable tensors whose cost reads an evicted region that changed: when a storage
// enters or leaves the evicted state (or its cost changes while evicted), the regions
// that can contain it are those of the non-evicted storages next to its evicted
// neighbourhood, found by walking that neighbourhood. The choice is the one the scan
// makes; each choice is checked against the heuristic's cost of the chosen tensor, and
// against the scan itself when cross-checking is on (eviction_index_cross_check).
#pragma once

#include <cstdint>
#include <vector>

#include "models/recompute/eviction_heuristic.h"
#include "models/recompute/staleness_tournament.h"
#include "sim/engine/tensor_state.h"

namespace memsim {

class MemoryManager;

// Every choice of every index is also made by the scan and compared (tests and
// MEMSIM_CROSS_CHECK_EVICTIONS=1 in the environment turn it on; quadratic, so off by default).
bool& eviction_index_cross_check();

class EvictionIndex {
public:
    static constexpr TensorId kNone = -1;

    // Starts tracking the table's changes; the tensors already listed are read at once.
    EvictionIndex(const Workload& w, TensorTable& tensors, const MemoryManager& memory, EvictionHeuristic& heuristic,
                  const EvictionView& view);

    // The candidate the heuristic's scan would choose now, or kNone when there is none.
    TensorId choose();

private:
    void spread(TensorId s);
    void walk_from(TensorId s, bool backward);
    void queue(TensorId c);
    void update(TensorId c, int slot, double now_ms);
    void compact(std::size_t extra, double now_ms);
    void check(TensorId c, int slot) const;

    const Workload& w_;
    TensorTable& tensors_;
    const MemoryManager& memory_;
    EvictionHeuristic& heuristic_;
    const EvictionView& view_;
    const TensorGraph* graph_;  // the evicted regions the cost reads, or nullptr
    StalenessTournament tournament_;
    std::vector<int> slot_of_;               // per tensor, or -1
    std::vector<TensorId> slot_tensor_;      // per slot, or kNone
    std::vector<std::uint64_t> slot_seq_;    // per slot: the tensor's evictable_seq when placed
    int next_slot_ = 0;
    std::vector<char> shadow_evicted_;       // per storage: as last seen
    std::vector<double> shadow_cost_;
    std::vector<char> queued_;
    std::vector<TensorId> queue_;
    std::vector<std::uint32_t> walk_mark_;
    std::vector<TensorId> walk_stack_;  // walk_from's, kept between walks
    std::uint32_t walk_epoch_ = 0;
};

}  // namespace memsim
