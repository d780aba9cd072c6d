// The one read-only window the policies get on a run: the recompute heuristics
// (EvictionView), the swap victim rules (VictimView) and the hybrid rule
// (SwapOrDropView) all read the engine through it.
#pragma once

#include "models/recompute/eviction_heuristic.h"
#include "models/swap/hybrid/swap_or_drop.h"
#include "models/swap/victim/victim_rule.h"
#include "sim/engine/disk_queue.h"
#include "sim/engine/memory_manager.h"

namespace memsim {

class PolicyView final : public EvictionView, public VictimView, public SwapOrDropView {
public:
    PolicyView(const EngineContext& ctx, bool op_clock, const StorageBook* storages)
        : w_(ctx.workload), tensors_(ctx.tensors), clock_(ctx.clock), memory_(ctx.memory), disk_(ctx.disk),
          speed_(ctx.config.platform.gpu_speed_scale), op_clock_(op_clock), storages_(storages) {}

    const Workload& workload() const override { return w_; }
    double now_ms() const override { return op_clock_ ? clock_.op_clock_ms() : clock_.now(); }
    bool resident(TensorId t) const override { return tensors_[t].where == Where::Resident; }
    bool evicted(TensorId t) const override { return tensors_[t].where == Where::Evicted; }
    bool on_disk(TensorId t) const override { return tensors_[t].where == Where::OnDisk; }
    double last_access_ms(TensorId t) const override { return tensors_[t].last_access_ms; }
    int recompute_count(TensorId t) const override { return tensors_[t].recomputes; }
    double compute_cost_ms(TensorId t) const override {
        if (storages_) return storages_->cost_ms(storages_->storage(t));  // dtr: the storage's cost so far
        const int p = w_.tensors[t].producer;
        return p == kNoOp ? 0.0 : w_.ops[p].cost_ms;
    }
    std::uint64_t free_neighbour_bytes(TensorId t) const override { return memory_.allocator().free_neighbour_bytes(t); }

    double ms_until_next_use(TensorId t, int op) const override { return tensors_.ms_until_next_use(t, op); }
    std::optional<int> next_use_op(TensorId t) const override { return tensors_.next_use_op(t); }

    double gpu_speed_scale() const override { return speed_; }
    std::optional<std::uint64_t> budget_bytes() const override { return memory_.budget(); }
    double swap_round_trip_ms(TensorId t) const override { return disk_.round_trip_ms(w_.tensors[t].bytes); }

private:
    const Workload& w_;
    const TensorTable& tensors_;
    const Clock& clock_;
    const MemoryManager& memory_;
    const DiskQueue& disk_;
    double speed_;
    bool op_clock_;
    const StorageBook* storages_;
};

}  // namespace memsim
