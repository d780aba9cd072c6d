// Where memsim's own rules, the reference swap simulator's and the published DTR
// runtime's differ (policy.semantics; docs/semantics.md), the engine's parts call a hook
// of the run's rules object instead of testing which semantics they run. One class per
// semantics, chosen by the semantics' table row (models/semantics/semantics.h):
//   SimulatedRules   memsim's own rules (semantics_rules.cpp);
//   ReferenceRules   the reference swap simulator's: finished writes freed at the swap
//                    mode's sync points, pending writes at the end of the forward pass,
//                    prefetched groups read as planned (semantics_rules.cpp);
//   DtrRuntimeRules  the published DTR runtime's, which work on storages: the policies'
//                    clock counts operator time, a released tensor is dropped at once but
//                    stays recomputable, views share their storage (dtr_runtime_rules.cpp).
// The rules are built first and keep the run's context for their hooks, which run only
// once every part is built.
#pragma once

#include <memory>
#include <vector>

#include "models/semantics/semantics.h"
#include "sim/engine/engine_context.h"

namespace memsim {

class SemanticsRules {
public:
    explicit SemanticsRules(const EngineContext& ctx) : ctx_(ctx) {}
    virtual ~SemanticsRules() = default;
    SemanticsRules(const SemanticsRules&) = delete;
    SemanticsRules& operator=(const SemanticsRules&) = delete;

    // The GPU stream, around each operator: requested (before its swap-ins), its inputs
    // locked and made resident, room for its outputs, run, outputs unlocked.
    virtual void on_op_requested(int op) = 0;
    virtual void lock_inputs(const Op& op, int for_op, int depth) = 0;
    virtual void make_room_for_outputs(const Op& op, int for_op) = 0;
    virtual void after_exec(const Op& op, bool top_level) = 0;  // top_level: not a recomputation
    virtual void unlock_outputs(const Op& op) = 0;
    // Releases (the op's release list; the plan's own Release steps are the stream's).
    virtual void release(TensorId t, int op) = 0;
    virtual void free_if_dead(TensorId t, int op) = 0;
    virtual void at_end_of_plan() = 0;
    // A view (alias) needed by op `op`.
    virtual void make_view_resident(TensorId view, int op, int depth) = 0;
    // An input absent without having been released may be recomputed (else: a bug).
    [[nodiscard]] virtual bool recomputes_unproduced_inputs() const = 0;
    // Recomputation: each output as it is (re)allocated (`absent`: it was not resident),
    // each regenerated one after the run, the outputs' unlock, each input after it.
    virtual void lock_recomputed_output(TensorId out, bool absent) = 0;
    virtual void on_regenerated(TensorId out) = 0;
    virtual void unlock_recomputed_outputs(const Op& producer, const std::vector<TensorId>& regenerated, TensorId for_tensor) = 0;
    virtual void after_recompute_input(TensorId in) = 0;

    // The memory manager: a tensor allocated; whether its uses leave it evictable (else
    // it is freed, not evicted); a tensor dropped for recomputation.
    virtual void on_allocated(TensorId t) = 0;
    [[nodiscard]] virtual bool evictable_by_use(TensorId t) const = 0;
    virtual void on_dropped(TensorId t) = 0;

    // The policies' view: their clock, and what recomputing a tensor costs.
    [[nodiscard]] virtual double policy_now_ms() const = 0;
    [[nodiscard]] virtual double compute_cost_ms(TensorId t) const = 0;

    // The swap side: a write completed; the end of the forward pass (true when the rules
    // acted there); a prefetched read group issued.
    virtual void on_write_done(TensorId t, int op) = 0;
    virtual bool free_pending_writes_at_forward_end() = 0;
    virtual void issue_prefetch(int consumer, int at_op) = 0;

protected:
    const EngineContext& ctx_;
};

// memsim's own rules; the other semantics change some of them.
class SimulatedRules : public SemanticsRules {
public:
    using SemanticsRules::SemanticsRules;
    void on_op_requested(int /*op*/) override {}
    void lock_inputs(const Op& op, int for_op, int depth) override;
    void make_room_for_outputs(const Op& /*op*/, int /*for_op*/) override {}
    void after_exec(const Op& op, bool top_level) override;
    void unlock_outputs(const Op& op) override;
    void release(TensorId t, int op) override;
    void free_if_dead(TensorId t, int op) override;
    void at_end_of_plan() override {}
    void make_view_resident(TensorId view, int op, int depth) override;
    [[nodiscard]] bool recomputes_unproduced_inputs() const override { return false; }
    void lock_recomputed_output(TensorId out, bool absent) override;
    void on_regenerated(TensorId out) override;
    void unlock_recomputed_outputs(const Op& producer, const std::vector<TensorId>& regenerated, TensorId for_tensor) override;
    void after_recompute_input(TensorId in) override;
    void on_allocated(TensorId t) override;
    [[nodiscard]] bool evictable_by_use(TensorId t) const override;
    void on_dropped(TensorId /*t*/) override {}
    [[nodiscard]] double policy_now_ms() const override;
    [[nodiscard]] double compute_cost_ms(TensorId t) const override;
    void on_write_done(TensorId t, int op) override;
    bool free_pending_writes_at_forward_end() override { return false; }
    void issue_prefetch(int consumer, int at_op) override;

protected:
    // A released tensor's memory: freed if resident and not being written; a copy on
    // disk or an evicted one is forgotten. One still being written is freed when its
    // write ends.
    void free_released(TensorId t, int op);
};

// The rules of `semantics` for the run around `ctx` (not built yet: only kept), whose
// workload is `w`.
std::unique_ptr<SemanticsRules> make_semantics_rules(EngineRules semantics, const EngineContext& ctx, const Workload& w);

}  // namespace memsim
