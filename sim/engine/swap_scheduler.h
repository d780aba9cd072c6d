// The swap plan at operator boundaries: the swap mode decides when the planned writes
// and reads are issued and waited for, through the actions offered here; under async
// swapping the prefetch rule decides, read group by read group, what to issue at each
// backward op start.
#pragma once

#include <functional>
#include <memory>
#include <optional>

#include "models/swap/mode/swap_mode.h"
#include "models/swap/prefetch/prefetch_rule.h"
#include "models/swap/swap_plan.h"
#include "sim/engine/engine_context.h"
#include "sim/engine/swap_io.h"

namespace memsim {

class GpuStream;

// What the prefetch rules read: the disk queue's predictions, the compute ahead and
// whether a read group fits the budget now.
class ReadQueueView final : public PrefetchView {
public:
    ReadQueueView(const EngineContext& ctx, const SwapPlan& plan)
        : w_(ctx.workload), tensors_(ctx.tensors), memory_(ctx.memory), queue_(ctx.queue), clock_(ctx.clock), plan_(plan),
          speed_(ctx.config.platform.gpu_speed_scale), no_prefetch_peak_(ctx.config.no_prefetch_peak) {}

    double now_ms() const override { return clock_.now(); }
    int op_count() const override { return static_cast<int>(w_.ops.size()); }
    double op_ms(int op) const override { return w_.ops[op].cost_ms / speed_; }
    double compute_between(int from, int to) const override { return tensors_.compute_between(from, to); }
    bool disk_idle() const override { return queue_.idle(); }
    double disk_free_at_ms() const override { return queue_.free_at_ms(); }
    double group_read_ms(int consumer) const override;
    bool group_fits(int consumer) const override;
    double group_read_ms_later(int consumer) const override;
    std::uint64_t group_bytes(int consumer) const override;
    std::uint64_t live_bytes() const override { return memory_.live_bytes(); }
    std::optional<std::uint64_t> budget_bytes() const override { return memory_.budget(); }
    std::optional<std::uint64_t> no_prefetch_peak_bytes() const override {
        return no_prefetch_peak_ ? no_prefetch_peak_() : std::nullopt;
    }
    std::int64_t planned_live_during(int op) const override { return planned_during_[op]; }
    std::int64_t op_allocation_bytes(int op) const override { return op_alloc_[op]; }
    void plan_changed();  // the plan's memory profile, recomputed

private:
    const Workload& w_;
    const TensorTable& tensors_;
    const MemoryManager& memory_;
    const TransferQueue& queue_;
    const Clock& clock_;
    const SwapPlan& plan_;
    double speed_;
    const NoPrefetchPeak& no_prefetch_peak_;
    std::vector<std::int64_t> planned_during_, op_alloc_;
};

class SwapScheduler final : public SwapActions {
public:
    SwapScheduler(const EngineContext& ctx, std::unique_ptr<SwapMode> mode, std::unique_ptr<PrefetchRule> prefetch);

    [[nodiscard]] bool moves_tensors() const { return mode_->moves_tensors(); }
    [[nodiscard]] bool has_sync_points() const { return mode_->has_sync_points(); }
    [[nodiscard]] const SwapPlan& plan() const { return plan_; }
    void set_plan(SwapPlan plan) {
        plan_ = std::move(plan);
        read_queue_.plan_changed();
    }
    void before_op(int op);
    void after_op(int op);

    // SwapActions
    int forward_end() const override { return w_.forward_end; }
    int op_count() const override { return static_cast<int>(w_.ops.size()); }
    void issue_reads(int consumer, int at_op) override;
    void wait_reads(int consumer) override;
    void issue_writes_after(int op) override;
    void wait_writes_after(int op, int at_op, const char* why) override;
    void free_finished_writes(int at_op) override { io_.free_finished_writes(at_op); }
    void make_inputs_resident(int op) override;
    void prefetch(int op) override;
    bool free_pending_writes_at_forward_end() override;

    // A prefetched group as memsim's own rules issue it: reads of tensors on disk, and a
    // tensor still being written is kept (its queued write dropped, one in flight frees
    // nothing): it is needed soon, and keeping it costs the memory its read would.
    void issue_prefetch(int consumer, int at_op);
    // Prefetch rounds go on from the group of op `op` (the groups before it are issued).
    void prefetch_from(int op) { next_group_ = op; }

private:
    const Workload& w_;
    TensorTable& tensors_;
    SwapIo& io_;
    Clock& clock_;
    SemanticsRules& rules_;
    std::unique_ptr<SwapMode> mode_;
    std::unique_ptr<PrefetchRule> prefetch_;
    SwapPlan plan_;
    ReadQueueView read_queue_;
    GpuStream& gpu_;
    int next_group_ = 0;  // the first backward op whose reads are not issued yet
};

}  // namespace memsim
