// The one read-only window the policies get on a run: the recompute heuristics
// (EvictionView), the swap victim rules (VictimView) and the hybrid rule
// (SwapOrDropView) all read the engine through it.
#pragma once

#include "models/recompute/eviction_heuristic.h"
#include "models/swap/hybrid/swap_or_drop.h"
#include "models/swap/victim/victim_rule.h"
#include "sim/engine/transfer_queue.h"
#include "sim/engine/memory_manager.h"
#include "sim/engine/semantics_rules.h"
#include "sim/engine/swap_io.h"

namespace memsim {

class PolicyView final : public EvictionView, public VictimView, public SwapOrDropView {
public:
    explicit PolicyView(const EngineContext& ctx)
        : w_(ctx.workload), tensors_(ctx.tensors), rules_(ctx.rules), memory_(ctx.memory), queue_(ctx.queue), io_(ctx.io),
          speed_(ctx.config.platform.gpu_speed_scale) {}

    const Workload& workload() const override { return w_; }
    double now_ms() const override { return rules_.policy_now_ms(); }
    bool resident(TensorId t) const override { return tensors_[t].where == Where::Resident; }
    bool evicted(TensorId t) const override { return tensors_[t].where == Where::Evicted; }
    bool on_disk(TensorId t) const override { return tensors_[t].where == Where::OnDisk; }
    double last_access_ms(TensorId t) const override { return tensors_[t].last_access_ms; }
    int recompute_count(TensorId t) const override { return tensors_[t].recomputes; }
    double compute_cost_ms(TensorId t) const override { return rules_.compute_cost_ms(t); }
    std::uint64_t free_neighbour_bytes(TensorId t) const override { return memory_.allocator().free_neighbour_bytes(t); }

    double ms_until_next_use(TensorId t, int op) const override { return tensors_.ms_until_next_use(t, op); }
    std::optional<int> next_use_op(TensorId t) const override { return tensors_.next_use_op(t); }

    double gpu_speed_scale() const override { return speed_; }
    std::optional<std::uint64_t> budget_bytes() const override { return memory_.budget(); }
    // To and from the tier the swap-out would go to now (host RAM when none can take it:
    // the run stops there anyway).
    double swap_round_trip_ms(TensorId t, int op) const override {
        return queue_.round_trip_ms(w_.tensors[t].bytes, io_.tier_for(t, op).value_or(kNearestTier));
    }

private:
    const Workload& w_;
    const TensorTable& tensors_;
    const SemanticsRules& rules_;
    const MemoryManager& memory_;
    const TransferQueue& queue_;
    const SwapIo& io_;
    double speed_;
};

}  // namespace memsim
