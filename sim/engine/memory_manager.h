// Every byte of the run: allocations and frees through the allocator, the live-bytes
// count, the budget and the eviction loop. What to evict is a policy's answer (a
// recompute heuristic, else the swap selection's victim rule); where it goes (disk or
// dropped for recomputation) is decided here from the configuration, and a swap-out
// goes through the Spiller interface, never to the disk queue directly.
#pragma once

#include <array>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "models/alloc/allocator.h"
#include "models/parallel/data_parallel.h"
#include "models/recompute/eviction_heuristic.h"
#include "models/swap/victim/victim_rule.h"
#include "sim/engine/clock.h"
#include "sim/engine/engine_context.h"
#include "sim/engine/eviction_index.h"
#include "sim/engine/regenerated_queue.h"
#include "sim/engine/tensor_state.h"

namespace memsim {

// Where evicted tensors go to disk (the swap side implements it).
class Spiller {
public:
    virtual ~Spiller() = default;
    // Starts writing it out; returns the tier it goes to. Its memory stays taken until
    // the write is done: wait_spilled returns then.
    virtual TierId spill(TensorId t, int op) = 0;
    virtual void wait_spilled(TensorId t, int op) = 0;
    [[nodiscard]] virtual bool writes_will_free() const = 0;
};

// How forced evictions are decided.
struct EvictionPolicy {
    std::unique_ptr<EvictionHeuristic> heuristic;  // chooses first when set (dynamic recomputation)
    std::unique_ptr<VictimRule> victim;            // chooses otherwise (on-demand swapping)
    bool spill = false;   // evictions go to disk (else they are dropped for recomputation)
    bool hybrid = false;  // each eviction swaps or drops, whichever is cheaper
};

// Forced evictions by outcome (the summary's evictions, and the hybrid's details).
struct EvictionCounts {
    std::uint64_t to_disk = 0, dropped = 0;
    std::uint64_t hybrid_swapped = 0, hybrid_dropped = 0;
};

class PolicyView;

class MemoryManager {
public:
    // The allocator and the budget from the context's configuration; swap-outs go to the
    // context's swap side (a Spiller), policies read the context's view.
    MemoryManager(const EngineContext& ctx, EvictionPolicy policy);
    ~MemoryManager();

    // Evicts until `bytes` more fit the budget (the published DTR runtime makes room for
    // all of an op's outputs at once, already-present ones included).
    void make_room_for(std::uint64_t bytes, int op) {
        if (budget_) make_room(bytes, op);
    }
    void allocate(TensorId t, int op);
    void free_memory(TensorId t, int op);
    [[nodiscard]] bool evictable(TensorId t) const;
    // Evicts a tensor for recomputation (freed, marked recomputable) and tells the heuristic.
    void drop(TensorId t, int op);
    void keep_regenerated(TensorId t) { regenerated_dead_.push(t); }
    // The dead tensors a regeneration brought back, each once, handed over (and forgotten).
    std::vector<TensorId> take_regenerated() { return regenerated_dead_.take_all(); }

    [[nodiscard]] EvictionHeuristic* heuristic() const { return policy_.heuristic.get(); }
    [[nodiscard]] const PolicyView& view() const { return view_; }
    [[nodiscard]] const Allocator& allocator() const { return *allocator_; }
    [[nodiscard]] bool fits(std::uint64_t bytes) const { return !budget_ || allocator_->footprint_if_allocated(bytes) <= *budget_; }
    [[nodiscard]] std::optional<std::uint64_t> budget() const { return budget_; }
    [[nodiscard]] std::uint64_t live_bytes() const { return live_bytes_; }
    [[nodiscard]] std::uint64_t live_peak() const { return live_peak_; }
    // The live bytes of each role (index: the TensorRole's value) when live_peak was first
    // reached.
    using RoleBytes = std::array<std::uint64_t, kTensorRoles.size()>;
    [[nodiscard]] const RoleBytes& live_peak_by_role() const { return peak_by_role_; }
    [[nodiscard]] const EvictionCounts& evictions() const { return evictions_; }
    // Tensors a data-parallel rank holds only for a collective (none marked: nothing is tracked).
    void mark_transient(TensorId t, TransientKind kind);
    [[nodiscard]] const TransientBytes& transient_peaks() const { return transient_peaks_; }

private:
    void make_room(std::uint64_t bytes, int op);
    bool drop_regenerated_dead(int op);
    [[nodiscard]] std::vector<TensorId> evictable_candidates() const;
    TensorId choose_victim(const std::vector<TensorId>& candidates, int op);
    bool staleness_index_ready();
    TensorId choose_indexed(int op);
    void evict(TensorId t, int op);
    [[noreturn]] void out_of_memory(std::uint64_t bytes, int op) const;
    void sample() {
        if (log_.recording) log_.sample(clock_.now(), allocator_->footprint_bytes(), live_bytes_, allocator_->allocated_bytes());
    }
    // What the allocator did (torch_caching's segments and blocks) into the log.
    void record_allocator_events(int op) const;

    const Workload& w_;
    TensorTable& tensors_;
    Clock& clock_;
    EventLog& log_;
    std::unique_ptr<Allocator> allocator_;
    std::optional<std::uint64_t> budget_;
    EvictionPolicy policy_;
    SemanticsRules& rules_;
    Spiller& spiller_;
    const PolicyView& view_;
    std::uint64_t live_bytes_ = 0, live_peak_ = 0;
    RoleBytes live_by_role_{}, peak_by_role_{};
    EvictionCounts evictions_;
    std::vector<TransientKind> transient_;  // per tensor; empty unless a rank marked some
    TransientBytes transient_live_, transient_peaks_;
    void count_transient(TensorId t, bool allocated);
    RegeneratedQueue regenerated_dead_;     // dead tensors a regeneration brought back
    std::unique_ptr<EvictionIndex> index_;  // a staleness-form heuristic's candidates
};

}  // namespace memsim
