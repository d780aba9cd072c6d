// memsim's own rules (SimulatedRules), the reference swap simulator's (ReferenceRules),
// and the factory that picks a semantics' rules. The published DTR runtime's:
// dtr_runtime_rules.cpp.
#include "sim/engine/semantics_rules.h"

#include "sim/engine/gpu_stream.h"
#include "sim/engine/policy_view.h"
#include "sim/engine/swap_io.h"

namespace memsim {

// Every input locked first (a resident one must not be evicted while a missing one is
// brought back), then the missing ones made resident in input order.
void SimulatedRules::lock_inputs(const Op& op, int for_op, int depth) {
    for (TensorId t : op.inputs) ctx_.tensors.lock(t);
    for (TensorId t : op.inputs) ctx_.io.swap_in_now(t, for_op);
    for (TensorId t : op.inputs) ctx_.stream.ensure_resident(t, for_op, depth);
}

// The policies' clock is the simulated one: inputs and outputs are stamped when the
// execution ends.
void SimulatedRules::after_exec(const Op& op, bool /*top_level*/) {
    const double now = ctx_.clock.now();
    for (TensorId t : op.inputs) ctx_.tensors[t].last_access_ms = now;
    for (TensorId t : op.outputs) ctx_.tensors[t].last_access_ms = now;
}

void SimulatedRules::unlock_outputs(const Op& op) {
    for (TensorId t : op.outputs) ctx_.tensors.unlock(t);
}

void SimulatedRules::release(TensorId t, int op) {
    ctx_.tensors[t].released = true;
    if (ctx_.stream.kept_as_source(t)) return;  // stays resident until the end of the iteration
    free_released(t, op);
}

void SimulatedRules::free_released(TensorId t, int op) {
    TensorState& st = ctx_.tensors[t];
    if (st.where == Where::Resident && !st.writing && !st.written) ctx_.memory.free_memory(t, op);
    else if (st.where == Where::OnDisk || st.where == Where::Evicted) {
        st.where = Where::Absent;
        ctx_.io.drop_copy(t);
    }
}

void SimulatedRules::free_if_dead(TensorId t, int op) { ctx_.stream.free_if_dead(t, op); }

// A view is resident when its root is.
void SimulatedRules::make_view_resident(TensorId view, int op, int depth) {
    TensorState& st = ctx_.tensors[view];
    ctx_.stream.ensure_resident(ctx_.workload.tensors[view].alias_of, op, depth + 1);
    st.where = Where::Resident;
}

void SimulatedRules::lock_recomputed_output(TensorId out, bool /*absent*/) { ctx_.tensors.lock(out); }

void SimulatedRules::on_regenerated(TensorId out) {
    ++ctx_.tensors[out].recomputes;
    if (EvictionHeuristic* heuristic = ctx_.memory.heuristic()) heuristic->on_rematerialized(ctx_.view, out);
}

void SimulatedRules::unlock_recomputed_outputs(const Op& producer, const std::vector<TensorId>& /*regenerated*/,
                                               TensorId /*for_tensor*/) {
    for (TensorId out : producer.outputs) ctx_.tensors.unlock(out);
}

// Brought back only to regenerate another tensor: kept (evictable) until the requesting
// op has run, so sibling branches do not regenerate it again.
void SimulatedRules::after_recompute_input(TensorId in) { ctx_.stream.keep_regenerated_input(in); }

void SimulatedRules::on_allocated(TensorId t) { ctx_.tensors[t].last_access_ms = policy_now_ms(); }

// A tensor with no use left is freed, not evicted.
bool SimulatedRules::evictable_by_use(TensorId t) const { return ctx_.tensors.has_future_use(t); }

double SimulatedRules::policy_now_ms() const { return ctx_.clock.now(); }

double SimulatedRules::compute_cost_ms(TensorId t) const {
    const int p = ctx_.workload.tensors[t].producer;
    return p == kNoOp ? 0.0 : ctx_.workload.ops[p].cost_ms;
}

void SimulatedRules::on_write_done(TensorId t, int op) { ctx_.io.free_to_disk(t, op); }

void SimulatedRules::issue_prefetch(int consumer, int at_op) { ctx_.swap.issue_prefetch(consumer, at_op); }

namespace {

// The reference swap simulator: a finished write keeps its memory until the swap mode's
// next sync point (when it has any), pending writes are freed at the end of the forward
// pass with the first read queued behind them, and a prefetched group is read as
// planned, whatever its tensors' state (its reads are issued by its own rule,
// Semantics::read_issue_rule).
class ReferenceRules final : public SimulatedRules {
public:
    using SimulatedRules::SimulatedRules;

    void on_write_done(TensorId t, int op) override {
        if (ctx_.swap.has_sync_points()) ctx_.io.free_at_next_sync_point(t);
        else ctx_.io.free_to_disk(t, op);
    }

    bool free_pending_writes_at_forward_end() override {
        const int f = ctx_.workload.forward_end;
        ctx_.io.free_pending_writes(f);
        ctx_.swap.issue_reads(f, f);  // the first read, queued behind every pending write
        ctx_.swap.prefetch_from(f + 1);
        return true;
    }

    void issue_prefetch(int consumer, int at_op) override { ctx_.swap.issue_reads(consumer, at_op); }
};

}  // namespace

std::unique_ptr<SemanticsRules> make_dtr_runtime_rules(const EngineContext& ctx, const Workload& w);

std::unique_ptr<SemanticsRules> make_semantics_rules(EngineRules semantics, const EngineContext& ctx, const Workload& w) {
    switch (semantics) {
        case EngineRules::Reference: return std::make_unique<ReferenceRules>(ctx);
        case EngineRules::DtrRuntime: return make_dtr_runtime_rules(ctx, w);
        case EngineRules::Simulated: break;
    }
    return std::make_unique<SimulatedRules>(ctx);
}

}  // namespace memsim
