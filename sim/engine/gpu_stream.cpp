#include "sim/engine/gpu_stream.h"

#include <algorithm>
#include <utility>

#include <fmt/format.h>

#include "sim/engine/policy_view.h"
#include "sim/engine/rank_collectives.h"
#include "sim/engine/engine_config.h"
#include "sim/engine/run_result.h"

namespace memsim {

namespace sg = simgrid::s4u;

namespace {

bool has_plan_steps(const ExecPlan& plan) {
    return std::any_of(plan.begin(), plan.end(), [](const PlanStep& p) { return p.kind != StepKind::Compute; });
}

}  // namespace

GpuStream::GpuStream(const EngineContext& ctx)
    : w_(ctx.workload),
      plan_(ctx.plan),
      speed_(ctx.config.platform.gpu_speed_scale),
      planned_(has_plan_steps(ctx.plan)),
      budgeted_(ctx.config.budget.has_value()),
      max_overhead_(ctx.config.max_overhead),
      rules_(ctx.rules),
      tensors_(ctx.tensors),
      memory_(ctx.memory),
      io_(ctx.io),
      swap_(ctx.swap),
      queue_(ctx.queue),
      clock_(ctx.clock),
      log_(ctx.log),
      collectives_(ctx.collectives),
      compute_ms_scaled_(ctx.workload.compute_ms() / speed_) {}

void GpuStream::run() {
    try {
        if (collectives_) collectives_->at_start();
        for (TensorId t : w_.initial_tensors()) memory_.allocate(t, -1);
        for (const PlanStep& step : plan_) run_step(step);
        rules_.at_end_of_plan();
        finish_iteration();
        finished_ = true;
    } catch (const RunStopped& stop) {
        stopped_ = stop;
    } catch (...) {
        clock_.fail(std::current_exception());
        if (collectives_) collectives_->ended(RunStopped{"error", "an error stopped it"});
    }
    end_ms_ = clock_.now();
    if (collectives_) collectives_->ended(stopped_);
    queue_.stop();  // a stopped run (oom, thrash, error) drops what is still queued
}

void GpuStream::run_step(const PlanStep& step) {
    if (step.kind == StepKind::Release) {
        release(step.tensor, -1, /*plan_step=*/true);
        return;
    }
    const int i = step.op;
    const Op& op = w_.ops[i];
    if (step.kind == StepKind::Recompute) {
        recompute(i, i, 0);
        return;
    }
    for (TensorId t : op.arrivals) memory_.allocate(t, i);  // constants declared just before this op
    rules_.on_op_requested(i);
    swap_.before_op(i);
    if (collectives_) {
        for (TensorId t : collectives_->to_gather(i)) gather(t, i);
        for (TensorId t : collectives_->before_op(i)) release(t, i);
    }
    // Inputs of the running operator are locked (not evictable) while it needs them.
    rules_.lock_inputs(op, i, 0);
    for (TensorId t : op.inputs) tensors_.mark_used(t);
    rules_.make_room_for_outputs(op, i);
    for (TensorId t : op.outputs) {
        memory_.allocate(t, i);
        tensors_.lock(t);
    }
    // An op that repeats a forward op (torch.utils.checkpoint's re-run, a synthetic step's
    // checkpointing) is the model's own recomputation: on the recompute lane, counted apart.
    const bool model_rerun = op.recomputes != kNoOp;
    run_exec(i, model_rerun ? lane::kRecompute : lane::kCompute, true);
    counts_.compute_ms += op.cost_ms / speed_;
    if (model_rerun) {
        ++counts_.model_recomputed_ops;
        counts_.model_recompute_ms += op.cost_ms / speed_;
    }
    rules_.unlock_outputs(op);
    for (TensorId t : op.inputs) tensors_.unlock(t);
    for (TensorId t : op.release) release(t, i);
    for (TensorId t : op.inputs) rules_.free_if_dead(t, i);
    for (TensorId t : memory_.take_regenerated()) rules_.free_if_dead(t, i);
    if (i == w_.forward_end - 1) log_.forward_end_ms = clock_.now();
    if (collectives_)
        for (TensorId t : collectives_->after_op(i)) release(t, i);
    swap_.after_op(i);
}

void GpuStream::run_exec(int op, const char* lane_name, bool top_level, const std::vector<TensorId>* scratch,
                         TensorId for_tensor) {
    const Op& o = w_.ops[op];
    if (scratch) {
        for (TensorId t : *scratch) memory_.allocate(t, op);
    } else {
        for (const ScratchEvent& e : o.scratch)
            if (e.alloc) memory_.allocate(e.tensor, op);
    }
    check_reads_resident(op);
    const double start = clock_.now();
    // Unnamed: nothing reads a SimGrid activity's name back, and copying the operator's
    // name into each one was a heap allocation per activity (the event log names it).
    sg::this_actor::exec_init(o.cost_ms / speed_)->wait();
    ++counts_.executions;
    clock_.advance_op_clock(o.cost_ms);
    // Not built when nothing records: the record copies the op's outputs (a heap allocation).
    if (log_.recording) log_.add({lane_name, start, clock_.now(), op, o.name, o.outputs, 0, for_tensor});
    for (const ScratchEvent& e : o.scratch)
        if (!e.alloc && tensors_[e.tensor].where == Where::Resident) memory_.free_memory(e.tensor, op);
    rules_.after_exec(o, top_level);
}

// Invariant of every run, in every semantics: an operator starts only when every storage
// it reads, through any view, is on the GPU and not still being read back.
void GpuStream::check_reads_resident(int op) const {
    for (TensorId t : w_.ops[op].inputs) {
        const TensorId s = tensors_.storage(t);
        const TensorState& st = std::as_const(tensors_)[s];
        if (st.where == Where::Resident && !st.reading) continue;
        const std::string via = s == t ? "" : fmt::format(" (read through its view {})", w_.tensors[t].name);
        throw InvariantError(fmt::format("op {} '{}' starts while the storage of tensor {}{} is {}", op, w_.ops[op].name,
                                         w_.tensors[s].name, via, st.reading ? "still being read back" : "not on the GPU"));
    }
}

void GpuStream::ensure_resident(TensorId t, int op, int depth) {
    if (depth > static_cast<int>(w_.ops.size()) + 1)
        throw InvariantError(fmt::format("op {}: recomputation of tensor {} does not terminate", op, w_.tensors[t].name));
    TensorState& st = tensors_[t];
    if (w_.tensors[t].alias_of >= 0) {
        rules_.make_view_resident(t, op, depth);
        return;
    }
    if (st.where == Where::Resident) {
        if ((st.writing || st.written) && !st.reading) io_.use_in_place(t, op);
        if (st.reading) clock_.wait_until([&] { return !tensors_[t].reading; }, op, "waiting for a swap-in", {t});
        return;
    }
    if (st.where == Where::OnDisk) {
        io_.swap_in_now(t, op);
        clock_.wait_until([&] { return !tensors_[t].reading; }, op, "waiting for a swap-in", {t});
        return;
    }
    const int producer = w_.tensors[t].producer;
    const bool heuristic = memory_.heuristic() != nullptr;
    if (producer == kNoOp)
        throw InvariantError(fmt::format("op {}: tensor {} is needed but absent and has no producer", op, w_.tensors[t].name));
    if (planned_ && !heuristic)
        throw InvariantError(fmt::format("op {} ({}): the execution plan needs tensor {} which it did not keep or "
                                         "recompute", op, w_.ops[op].name, w_.tensors[t].name));
    if (st.where == Where::Absent && !st.released && !rules_.recomputes_unproduced_inputs() && !heuristic)
        throw InvariantError(fmt::format("op {} ({}): input tensor {} used before it was produced or after it was freed",
                                         op, w_.ops[op].name, w_.tensors[t].name));
    recompute(producer, op, depth, t);
}

void GpuStream::recompute(int producer, int for_op, int depth, TensorId for_tensor) {
    const Op& p = w_.ops[producer];
    rules_.lock_inputs(p, for_op, depth + 1);
    rules_.make_room_for_outputs(p, for_op);
    std::vector<TensorId> regenerated;
    for (TensorId out : p.outputs) {
        const bool absent = tensors_[out].where != Where::Resident;
        if (absent) {
            // A sibling swapped out (its storage read later, so it had a future use) comes
            // back with the recomputation: its copy is no longer needed.
            if (tensors_[out].where == Where::OnDisk) io_.drop_copy(out);
            memory_.allocate(out, for_op);
            regenerated.push_back(out);
        }
        rules_.lock_recomputed_output(out, absent);
    }
    // Scratch another step still holds (allocated by the op, freed by a later one) is
    // not allocated twice; what this recomputation allocates it frees.
    std::vector<TensorId> scratch;
    for (const ScratchEvent& e : p.scratch)
        if (e.alloc && tensors_[e.tensor].where != Where::Resident) scratch.push_back(e.tensor);
    run_exec(producer, lane::kRecompute, false, &scratch, for_tensor);
    for (TensorId t : scratch)
        if (tensors_[t].where == Where::Resident) memory_.free_memory(t, for_op);
    for (TensorId out : regenerated) rules_.on_regenerated(out);
    rules_.unlock_recomputed_outputs(p, regenerated, for_tensor);
    for (TensorId in : p.inputs) {
        tensors_.unlock(in);
        rules_.after_recompute_input(in);
    }
    ++counts_.recomputed_ops;
    counts_.recompute_ms += p.cost_ms / speed_;
    check_overhead(for_op);
}

void GpuStream::check_overhead(int for_op) const {
    if (max_overhead_ && counts_.recompute_ms > *max_overhead_ * compute_ms_scaled())
        throw RunStopped{"thrash", fmt::format("recomputation time {:.3f} ms exceeded {} x the compute time {:.3f} ms at op {}",
                                               counts_.recompute_ms, *max_overhead_, compute_ms_scaled(), for_op)};
    // Without a limit a thrashing heuristic (random on MobilenetV2 at 60%) recomputes
    // for ever and the event log eats the host's memory: stop runaways anyway.
    if (!max_overhead_ && counts_.recompute_ms > kRunawayOverhead * compute_ms_scaled())
        throw RunStopped{"thrash", fmt::format("recomputation time {:.3f} ms exceeded {} x the compute time {:.3f} ms at op {} "
                                               "(the built-in runaway limit; set policy.recompute.max_overhead)",
                                               counts_.recompute_ms, kRunawayOverhead, compute_ms_scaled(), for_op)};
}

// A tensor brought back for a recomputation after its last use goes again (a plan frees
// what it recomputed with its own Release steps).
// Under a recomputation budget a constant or input (no producer) is never freed before
// the end, as in the published DTR runtime: an evicted tensor computed from it may need
// it again to be recomputed, and nothing could bring it back.
bool GpuStream::kept_as_source(TensorId t) const {
    return memory_.heuristic() && budgeted_ && w_.tensors[t].producer == kNoOp;
}

void GpuStream::keep_regenerated_input(TensorId t) {
    if (tensors_[t].released && !planned_ && !kept_as_source(t)) memory_.keep_regenerated(t);
}

void GpuStream::free_if_dead(TensorId t, int op) {
    if (planned_ || kept_as_source(t)) return;
    const TensorState& st = tensors_[t];
    if (st.released && st.where == Where::Resident && st.locks == 0 && !st.writing && !st.reading) memory_.free_memory(t, op);
}

void GpuStream::release(TensorId t, int op, bool plan_step) {
    TensorState& st = tensors_[t];
    // A plan keeps a source (no producer) past its op's release for recomputations and
    // frees it with a Release step of its own.
    if (planned_ && !plan_step && w_.tensors[t].producer == kNoOp) return;
    if (planned_) {
        // A planner's Release (early, or of a copy recomputed after its last use) and an
        // op's release list both free whatever copy is resident, as plan_replay counts.
        st.released = true;
        if (st.where == Where::Resident && !st.writing && !st.written && st.locks == 0) memory_.free_memory(t, op);
        else if (st.where == Where::OnDisk || st.where == Where::Evicted) {
            st.where = Where::Absent;
            io_.drop_copy(t);
        }
        return;
    }
    if (st.released) return;  // already gone
    rules_.release(t, op);
}

// A parameter gathered again (ZeRO-3): allocated for the all-gather to write into, and
// live again until the end of its next stretch of use.
void GpuStream::gather(TensorId t, int op) {
    TensorState& st = tensors_[t];
    if (st.where == Where::Resident) return;
    st.released = false;
    memory_.allocate(t, op);
}

void GpuStream::finish_iteration() {
    // Outstanding I/O and collectives belong to the iteration.
    if (collectives_)
        for (TensorId t : collectives_->at_end(static_cast<int>(w_.ops.size()) - 1)) release(t, -1);
    clock_.wait_until([&] { return queue_.idle(); }, static_cast<int>(w_.ops.size()) - 1, "waiting for the disk queue to drain");
    io_.free_finished_writes(-1);
    // Everything still allocated (final outputs, parameters) is freed at the end.
    for (TensorId t = 0; t < tensors_.size(); ++t)
        if (tensors_[t].where == Where::Resident && w_.tensors[t].alias_of < 0) memory_.free_memory(t, -1);
    if (memory_.live_bytes() != 0)
        throw InvariantError(fmt::format("{} bytes still allocated at the end of the iteration", memory_.live_bytes()));
}

}  // namespace memsim
