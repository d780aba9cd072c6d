#include "sim/engine/swap_scheduler.h"

#include <algorithm>

#include "sim/engine/gpu_stream.h"
#include "sim/engine/semantics_rules.h"

namespace memsim {

SwapScheduler::SwapScheduler(const EngineContext& ctx, std::unique_ptr<SwapMode> mode, std::unique_ptr<PrefetchRule> prefetch)
    : w_(ctx.workload), tensors_(ctx.tensors), io_(ctx.io), clock_(ctx.clock), rules_(ctx.rules), mode_(std::move(mode)),
      prefetch_(std::move(prefetch)), read_queue_(ctx, plan_), gpu_(ctx.stream) {}

// Swap-ins this op needs, issued according to the mode; prefetch for later ops.
void SwapScheduler::before_op(int op) {
    if (op < w_.forward_end) return;
    mode_->before_backward_op(*this, op);
}

void SwapScheduler::after_op(int op) {
    if (op >= w_.forward_end) return;
    mode_->after_forward_op(*this, op);
}

void SwapScheduler::issue_reads(int consumer, int at_op) {
    // Only tensors already on disk; one whose write is still pending is handled on
    // demand (used in place if still resident, read if gone by then).
    for (TensorId t : plan_.in_for[consumer]) io_.swap_in_now(t, at_op);
}

void SwapScheduler::wait_reads(int consumer) {
    for (TensorId t : plan_.in_for[consumer])
        if (tensors_[t].reading) clock_.wait_until([&] { return !tensors_[t].reading; }, consumer, "waiting for a swap-in", {t});
}

void SwapScheduler::issue_writes_after(int op) {
    for (TensorId t : plan_.out_after[op]) io_.write(t, op);
}

void SwapScheduler::wait_writes_after(int op, int at_op, const char* why) {
    if (op < 0 || op >= op_count()) return;  // no op there, so no writes after it
    const auto& outs = plan_.out_after[op];
    clock_.wait_until([&] { return std::none_of(outs.begin(), outs.end(), [&](TensorId t) { return tensors_[t].writing; }); },
                      at_op, why, outs);
}

// Issues every needed read at once (FIFO order = input order), then waits for each.
void SwapScheduler::make_inputs_resident(int op) {
    for (TensorId t : w_.ops[op].inputs) io_.swap_in_now(t, op);
    for (TensorId t : w_.ops[op].inputs) gpu_.ensure_resident(t, op);
}

bool SwapScheduler::free_pending_writes_at_forward_end() { return rules_.free_pending_writes_at_forward_end(); }

// At the start of backward op `op`, issue the reads the prefetch rule wants now.
void SwapScheduler::prefetch(int op) {
    const int n = op_count();
    if (next_group_ < op) next_group_ = op;
    prefetch_->begin(read_queue_, op);
    while (next_group_ < n && prefetch_->issue_now(read_queue_, op, next_group_)) {
        rules_.issue_prefetch(next_group_, op);
        ++next_group_;
    }
}

void SwapScheduler::issue_prefetch(int consumer, int at_op) {
    for (TensorId t : plan_.in_for[consumer]) {
        const TensorState& st = tensors_[t];
        if (st.where == Where::Resident && st.writing && !st.keep_resident) io_.use_in_place(t, at_op);
        else io_.swap_in_now(t, at_op);
    }
}

void ReadQueueView::plan_changed() {
    planned_during_ = memsim::planned_live_during(w_, plan_);
    op_alloc_ = memsim::op_allocation_bytes(w_);
}

double ReadQueueView::group_read_ms_later(int consumer) const {
    double ms = 0;
    for (TensorId t : plan_.in_for[consumer]) {
        const TensorState& st = tensors_[t];
        if ((st.where == Where::OnDisk && !st.reading) || (st.writing && !st.keep_resident))
            ms += queue_.read_ms(w_.tensors[t].bytes, st.copy_tier);
    }
    return ms;
}

// A tensor still being written counts: keeping it gives up the free its write would
// bring, which the memory prediction may be counting on.
std::uint64_t ReadQueueView::group_bytes(int consumer) const {
    std::uint64_t bytes = 0;
    for (TensorId t : plan_.in_for[consumer]) {
        const TensorState& st = tensors_[t];
        if ((st.where == Where::OnDisk && !st.reading) || (st.writing && !st.keep_resident)) bytes += w_.tensors[t].bytes;
    }
    return bytes;
}

double ReadQueueView::group_read_ms(int consumer) const {
    double ms = 0;
    for (TensorId t : plan_.in_for[consumer])
        if (tensors_[t].where == Where::OnDisk) ms += queue_.read_ms(w_.tensors[t].bytes, tensors_[t].copy_tier);
    return ms;
}

bool ReadQueueView::group_fits(int consumer) const {
    std::uint64_t bytes = 0;
    for (TensorId t : plan_.in_for[consumer])
        if (tensors_[t].where == Where::OnDisk) bytes += w_.tensors[t].bytes;
    return memory_.fits(bytes);
}

}  // namespace memsim
