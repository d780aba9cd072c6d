// The published DTR runtime's rules (policy.semantics: dtr; docs/recompute.md, "DTR
// semantics"), which work on storages through the StorageBook: the policies' clock
// counts operator time only; inputs are stamped when locked and outputs when their op
// ends; a released tensor is dropped at once but stays recomputable, and one recomputed
// after its release stays an ordinary evictable tensor; a view is defined on its own
// and re-runs its view op when undefined; at the end of the log every tensor still
// referenced is requested once more.
#include <algorithm>
#include <span>
#include <utility>

#include "sim/engine/gpu_stream.h"
#include "sim/engine/policy_view.h"
#include "sim/engine/semantics_rules.h"
#include "sim/engine/storage_book.h"

namespace memsim {

namespace {

class DtrRuntimeRules final : public SimulatedRules {
public:
    DtrRuntimeRules(const EngineContext& ctx, const Workload& w) : SimulatedRules(ctx), book_(w) {}

    // From its request on, an op's outputs exist: each output storage's cost gains the
    // op's cost, and a fresh output storage not computed yet counts as evicted (it is a
    // graph neighbour of the inputs being locked and rematerialized).
    void on_op_requested(int op) override {
        book_.request(op);
        for (TensorId u : ctx_.workload.ops[op].outputs) ctx_.tensors.touch(book_.storage(u));  // its cost changed
        for (TensorId u : ctx_.workload.ops[op].outputs)
            if (ctx_.workload.tensors[u].alias_of < 0 && ctx_.tensors[u].where == Where::Absent) ctx_.tensors[u].where = Where::Evicted;
    }

    // Every input's storage is stamped at request time; defined inputs are locked first,
    // then the undefined ones are rematerialized one by one (an earlier one may bring a
    // later one back) and locked. Locks are the storage's.
    void lock_inputs(const Op& op, int for_op, int depth) override {
        for (TensorId t : op.inputs) ctx_.tensors.stamp_access(t, ctx_.clock.op_clock_ms());
        for (TensorId t : op.inputs) ctx_.io.swap_in_now(t, for_op);
        std::vector<TensorId> missing;
        for (TensorId t : op.inputs) {
            if (ready(t)) ctx_.tensors.lock(t);
            else missing.push_back(t);
        }
        for (TensorId t : missing) {
            ctx_.stream.ensure_resident(t, for_op, depth);
            ctx_.tensors.lock(t);
        }
    }

    // Room for all the outputs first (those still present are computed twice and the
    // copy dropped).
    void make_room_for_outputs(const Op& op, int for_op) override {
        std::uint64_t fresh = 0;
        for (TensorId u : op.outputs)
            if (ctx_.workload.tensors[u].alias_of < 0) fresh += ctx_.workload.tensors[u].bytes;
        ctx_.memory.make_room_for(fresh, for_op);
    }

    // Inputs were stamped when locked; a recomputed tensor keeps the stamp its requester
    // gave it.
    void after_exec(const Op& op, bool top_level) override {
        if (top_level)
            for (TensorId t : op.outputs) ctx_.tensors.stamp_access(t, ctx_.clock.op_clock_ms());
    }

    void unlock_outputs(const Op& op) override {
        if (op.outputs.empty()) return;
        for (TensorId t : evictable_order(op.outputs, op.outputs.front())) ctx_.tensors.unlock(t);
    }

    // A view's release is its storage's (the root's, when the last goes); a resident
    // unlocked tensor is dropped at once, still recomputable, unless its swap-out is in
    // flight.
    void release(TensorId t, int op) override {
        if (ctx_.workload.tensors[t].alias_of >= 0) return;
        TensorState& st = ctx_.tensors[t];
        st.released = true;
        if (ctx_.stream.kept_as_source(t)) return;  // stays resident until the end of the iteration
        // One whose swap-out is in flight is freed when the write ends (free_released).
        if (st.where == Where::Resident && st.locks == 0 && !st.writing && !st.written) {
            ctx_.memory.drop(t, op);
            return;
        }
        if (st.where == Where::Evicted) return;
        free_released(t, op);
    }

    void free_if_dead(TensorId /*t*/, int /*op*/) override {}  // released tensors were dropped

    // End of the log: every tensor still referenced is requested once more, in the
    // loader's order (Workload::end_of_log_requests, one entry per name), rematerialized
    // if undefined (a recomputation like any other) and pinned; a later entry of a pinned
    // storage is a no-op.
    void at_end_of_plan() override {
        const int last_op = static_cast<int>(ctx_.workload.ops.size()) - 1;
        std::vector<char> pinned(ctx_.workload.tensors.size(), 0);
        for (TensorId t : book_.final_requests()) {
            if (ctx_.tensors[t].where != Where::Resident) ctx_.stream.ensure_resident(t, last_op);
            const TensorId s = ctx_.tensors.storage(t);
            if (!pinned[s]) {
                ctx_.tensors.lock(t);
                pinned[s] = 1;
            }
        }
    }

    // A view is defined on its own; an undefined one re-runs its view op. A defined one
    // still reads its storage, which a swap-out may have moved off the GPU (a drop
    // undefines the views, on_dropped): brought back, or waited for, first.
    void make_view_resident(TensorId view, int op, int depth) override {
        const TensorId s = book_.storage(view);
        const Where storage_where = ctx_.tensors[s].where;
        if (storage_where == Where::OnDisk || storage_where == Where::Resident) ctx_.stream.ensure_resident(s, op, depth + 1);
        if (ctx_.tensors[view].where != Where::Resident) ctx_.stream.recompute(ctx_.workload.tensors[view].producer, op, depth, view);
    }

    [[nodiscard]] bool recomputes_unproduced_inputs() const override { return true; }

    // Only the regenerated outputs are locked and re-enter the pool.
    void lock_recomputed_output(TensorId out, bool absent) override {
        if (absent) ctx_.tensors.lock(out);
    }

    void on_regenerated(TensorId out) override {
        if (ctx_.workload.tensors[out].alias_of >= 0) return;  // a view: its storage was present
        SimulatedRules::on_regenerated(out);
    }

    void unlock_recomputed_outputs(const Op& /*producer*/, const std::vector<TensorId>& regenerated, TensorId for_tensor) override {
        for (TensorId out : evictable_order(regenerated, for_tensor)) ctx_.tensors.unlock(out);
    }

    void after_recompute_input(TensorId /*in*/) override {}

    void on_allocated(TensorId /*t*/) override {}  // stamped by lock and compute only

    // A tensor recomputed after its release stays an ordinary evictable tensor.
    [[nodiscard]] bool evictable_by_use(TensorId /*t*/) const override { return true; }

    // Dropping a storage undefines its views.
    void on_dropped(TensorId t) override {
        for (TensorId v : book_.views(t))
            if (ctx_.tensors[v].where == Where::Resident) ctx_.tensors[v].where = Where::Evicted;
    }

    [[nodiscard]] double policy_now_ms() const override { return ctx_.clock.op_clock_ms(); }
    // The storage's cost so far.
    [[nodiscard]] double compute_cost_ms(TensorId t) const override { return book_.cost_ms(book_.storage(t)); }

private:
    // Defined, and its storage on the GPU and not still being read back by a swap-in (a
    // view's storage may have been swapped out while the view stayed defined). Without
    // swapping, defined alone.
    [[nodiscard]] bool ready(TensorId t) const {
        const TensorState& storage = std::as_const(ctx_.tensors)[book_.storage(t)];
        return std::as_const(ctx_.tensors)[t].where == Where::Resident && storage.where == Where::Resident && !storage.reading;
    }

    // The order in which (re)computed outputs enter the evictable pool: the requested one
    // (`last`; the first output for a top-level op) after its siblings.
    static std::vector<TensorId> evictable_order(std::span<const TensorId> outputs, TensorId last) {
        std::vector<TensorId> order;
        for (TensorId u : outputs)
            if (u != last) order.push_back(u);
        if (std::find(outputs.begin(), outputs.end(), last) != outputs.end()) order.push_back(last);
        return order;
    }

    StorageBook book_;
};

}  // namespace

std::unique_ptr<SemanticsRules> make_dtr_runtime_rules(const EngineContext& ctx, const Workload& w) {
    return std::make_unique<DtrRuntimeRules>(ctx, w);
}

}  // namespace memsim
