#include "dtr_reference_runtime.h"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

namespace memsim {

namespace {

struct StopRun {
    RecomputeStatus status;
    std::string message;
};

class DtrReferenceRuntime final : public EvictionView {
public:
    DtrReferenceRuntime(const Workload& w, EvictionHeuristic& heuristic, const DtrRuntimeOptions& options)
        : w_(w), heuristic_(heuristic), options_(options) {
        const auto n = w.tensors.size();
        storage_of_.resize(n);
        for (TensorId t = 0; t < static_cast<TensorId>(n); ++t) {
            TensorId root = t;
            while (w.tensors[root].alias_of >= 0) root = w.tensors[root].alias_of;
            storage_of_[t] = root;
        }
        members_.assign(n, {});
        for (TensorId t = 0; t < static_cast<TensorId>(n); ++t) members_[storage_of_[t]].push_back(t);
        storage_cost_.assign(n, 0.0);
        cost_ops_.assign(n, {});
        created_.assign(n, 0);
        evicted_.assign(n, 0);
        defined_.assign(n, 0);
        material_.assign(n, 0);
        computed_once_.assign(n, 0);
        pinned_.assign(n, 0);
        locks_.assign(n, 0);
        references_.assign(n, 0);
        recomputes_.assign(n, 0);
        last_access_.assign(n, -std::numeric_limits<double>::infinity());
        for (TensorId t = 0; t < static_cast<TensorId>(n); ++t) ++references_[storage_of_[t]];
    }

    DtrRuntimeResult run() {
        try {
            for (TensorId t : w_.initial_tensors()) add_constant(t);
            for (int i = 0; i < static_cast<int>(w_.ops.size()); ++i) {
                current_op_ = i;
                const Op& op = w_.ops[i];
                for (TensorId t : op.arrivals) add_constant(t);
                request(i);
                if (!op.outputs.empty()) {
                    materialize(op.outputs.front(), false);
                    for (TensorId u : op.outputs) last_access_[storage_of_[u]] = clock_;
                } else {
                    run_without_outputs(i);
                }
                for (TensorId t : op.release) release(t);
            }
            // End of the log: every tensor still referenced is requested once more and kept.
            const int before_end = result_.recomputed_ops;
            for (TensorId t : options_.final_requests) {
                if (!defined_[t]) materialize(t, true);
                pin(storage_of_[t]);
                result_.end_recomputed_ops = result_.recomputed_ops - before_end;
            }
        } catch (const StopRun& stop) {
            result_.status = stop.status;
            result_.message = stop.message;
        }
        result_.clock_ms = clock_;
        return result_;
    }

    // EvictionView
    [[nodiscard]] const Workload& workload() const override { return w_; }
    [[nodiscard]] double now_ms() const override { return clock_; }
    [[nodiscard]] bool resident(TensorId t) const override { return material_[storage_of_[t]] != 0; }
    [[nodiscard]] bool evicted(TensorId t) const override { return evicted_[storage_of_[t]] != 0; }
    [[nodiscard]] double last_access_ms(TensorId t) const override { return last_access_[storage_of_[t]]; }
    [[nodiscard]] int recompute_count(TensorId t) const override { return recomputes_[storage_of_[t]]; }
    [[nodiscard]] double compute_cost_ms(TensorId t) const override { return storage_cost_[storage_of_[t]]; }
    [[nodiscard]] std::uint64_t free_neighbour_bytes(TensorId /*t*/) const override { return 0; }
    [[nodiscard]] StorageArrays storage_arrays() const override { return {evicted_.data(), storage_cost_.data()}; }

private:
    std::uint64_t bytes_of(TensorId s) const { return w_.tensors[s].bytes; }

    // Evicted: created (its op requested) and not material; kept as a byte per storage,
    // after every change of either, for the heuristics' region walks (storage_arrays).
    void update_evicted(TensorId s) { evicted_[s] = created_[s] && !material_[s]; }

    // A constant is computed (free, making room first) at its CONSTANT line and pinned.
    void add_constant(TensorId t) {
        const TensorId s = storage_of_[t];
        created_[s] = 1;
        update_evicted(s);
        if (!material_[s]) {
            if (memory_ + bytes_of(s) > options_.budget_bytes) make_room(bytes_of(s));
            add_bytes(bytes_of(s));
        }
        material_[s] = computed_once_[s] = 1;
        update_evicted(s);
        defined_[t] = 1;
        pin(s);
    }

    void pin(TensorId s) {
        if (pinned_[s]) return;
        lock(s);
        pinned_[s] = 1;
    }

    // The op's outputs exist from its request on: their storages are graph neighbours
    // (evicted while not computed yet), and each storage's cost gains the op's cost
    // (the sum over the distinct ops that created a tensor in it).
    void request(int op_index) {
        const Op& op = w_.ops[op_index];
        for (TensorId u : op.outputs) {
            const TensorId s = storage_of_[u];
            created_[s] = 1;
            update_evicted(s);
            std::vector<int>& ops = cost_ops_[s];
            if (std::find(ops.begin(), ops.end(), op_index) != ops.end()) continue;
            ops.push_back(op_index);
            storage_cost_[s] += op.cost_ms;
        }
    }

    void add_bytes(std::uint64_t bytes) {
        memory_ += bytes;
        result_.peak_bytes = std::max(result_.peak_bytes, memory_);
    }

    void make_evictable(TensorId s) {
        if (pinned_[s] || locks_[s] > 0) return;
        if (std::find(pool_.begin(), pool_.end(), s) == pool_.end()) pool_.push_back(s);
    }

    void lock(TensorId s) {
        if (pinned_[s]) return;
        if (locks_[s]++ == 0) pool_.erase(std::remove(pool_.begin(), pool_.end(), s), pool_.end());
    }

    void unlock(TensorId s) {
        if (pinned_[s]) return;
        if (--locks_[s] == 0) make_evictable(s);
    }

    void evict(TensorId s) {
        material_[s] = 0;
        update_evicted(s);
        memory_ -= bytes_of(s);
        pool_.erase(std::remove(pool_.begin(), pool_.end(), s), pool_.end());
        for (TensorId u : members_[s]) defined_[u] = 0;
        heuristic_.on_evicted(*this, s);
    }

    void release(TensorId t) {
        const TensorId s = storage_of_[t];
        if (references_[s] == 0) return;
        if (--references_[s] == 0 && material_[s] && !pinned_[s]) evict(s);
    }

    void make_room(std::uint64_t bytes) {
        while (memory_ + bytes > options_.budget_bytes) {
            if (pool_.empty()) {
                std::uint64_t locked = 0;
                for (TensorId s = 0; s < static_cast<TensorId>(material_.size()); ++s)
                    if (material_[s] && storage_of_[s] == s) locked += bytes_of(s);
                throw StopRun{RecomputeStatus::OutOfMemory,
                              fmt::format("out of memory at op {} '{}': needs {} B, budget {} B, {} B resident and "
                                          "nothing evictable",
                                          current_op_, w_.ops[current_op_].name, bytes, options_.budget_bytes, locked)};
            }
            const std::size_t index = heuristic_.choose(*this, pool_);
            if (index >= pool_.size()) throw std::logic_error("eviction heuristic returned an index out of range");
            ++result_.evictions;
            evict(pool_[index]);
        }
    }

    std::uint64_t fresh_output_bytes(const Op& op) const {
        std::uint64_t total = 0;
        for (TensorId u : op.outputs)
            if (w_.tensors[u].alias_of < 0) total += w_.tensors[u].bytes;
        return total;
    }

    void lock_inputs(const Op& op) {
        for (TensorId p : op.inputs) last_access_[storage_of_[p]] = clock_;
        std::vector<TensorId> missing;
        for (TensorId p : op.inputs) {
            if (defined_[p]) lock(storage_of_[p]);
            else missing.push_back(p);
        }
        for (TensorId p : missing) {
            if (!defined_[p]) materialize(p, true);  // an earlier sibling may have brought it back
            lock(storage_of_[p]);
        }
    }

    void unlock_inputs(const Op& op) {
        for (TensorId p : op.inputs) unlock(storage_of_[p]);
        if (result_.recompute_ms > options_.max_recompute_ms)
            throw StopRun{RecomputeStatus::Thrash,
                          fmt::format("thrashing at op {} '{}': recomputation time {} ms exceeds the limit {} ms",
                                      current_op_, w_.ops[current_op_].name, result_.recompute_ms,
                                      options_.max_recompute_ms)};
    }

    void account_compute(const Op& op, bool rematerialize) {
        clock_ += op.cost_ms;
        if (rematerialize) {
            ++result_.recomputed_ops;
            result_.recompute_ms += op.cost_ms;
        } else {
            result_.compute_ms += op.cost_ms;
        }
    }

    void run_without_outputs(int op_index) {
        const Op& op = w_.ops[op_index];
        lock_inputs(op);
        account_compute(op, false);
        unlock_inputs(op);
    }

    void materialize(TensorId t, bool rematerialize) {
        const int op_index = w_.tensors[t].producer;
        if (op_index == kNoOp) throw std::logic_error(fmt::format("tensor '{}' has no producer to recompute it", w_.tensors[t].name));
        const Op& op = w_.ops[op_index];
        lock_inputs(op);
        const std::uint64_t need = fresh_output_bytes(op);
        if (memory_ + need > options_.budget_bytes) make_room(need);

        // The op recomputes all its outputs; outputs already present were computed twice
        // and the duplicate is dropped at once.
        std::vector<TensorId> order;
        for (TensorId u : op.outputs)
            if (u != t) order.push_back(u);
        order.push_back(t);
        std::vector<TensorId> new_storages;
        for (TensorId u : order) {
            const TensorId s = storage_of_[u];
            if (!material_[s] && std::find(new_storages.begin(), new_storages.end(), s) == new_storages.end())
                new_storages.push_back(s);
        }
        std::uint64_t duplicate = 0;
        for (TensorId u : order)
            if (u != t && defined_[u] && w_.tensors[u].alias_of < 0) duplicate += w_.tensors[u].bytes;

        account_compute(op, rematerialize);
        add_bytes(need);
        memory_ -= duplicate;
        for (TensorId u : op.outputs) defined_[u] = 1;
        for (TensorId s : new_storages) {
            material_[s] = 1;
            update_evicted(s);
            make_evictable(s);
            if (computed_once_[s]) {
                ++recomputes_[s];
                heuristic_.on_rematerialized(*this, s);
            }
            computed_once_[s] = 1;
        }
        unlock_inputs(op);
    }

    const Workload& w_;
    EvictionHeuristic& heuristic_;
    DtrRuntimeOptions options_;
    DtrRuntimeResult result_;
    std::vector<TensorId> storage_of_;
    std::vector<std::vector<TensorId>> members_;
    std::vector<double> storage_cost_;
    std::vector<std::vector<int>> cost_ops_;  // per storage: the ops counted in storage_cost_
    std::vector<char> defined_, material_, computed_once_, pinned_, created_;
    std::vector<std::uint8_t> evicted_;
    std::vector<int> locks_, references_, recomputes_;
    std::vector<double> last_access_;
    std::vector<TensorId> pool_;
    std::uint64_t memory_ = 0;
    double clock_ = 0.0;
    int current_op_ = 0;
};

}  // namespace

DtrRuntimeResult run_dtr_reference(const Workload& w, EvictionHeuristic& heuristic, const DtrRuntimeOptions& options) {
    DtrReferenceRuntime runtime(w, heuristic, options);
    return runtime.run();
}

}  // namespace memsim
