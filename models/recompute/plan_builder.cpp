#include "models/recompute/plan_builder.h"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

namespace memsim {

PlanBuilder::PlanBuilder(const Workload& w, bool free_chain_ancestors)
    : w_(w), live_(w.tensors.size(), 0), pins_(w.tensors.size(), 0), readers_(w.tensors.size()), free_chain_ancestors_(free_chain_ancestors) {
    for (int i = 0; i < static_cast<int>(w.ops.size()); ++i)
        for (TensorId t : w.ops[i].inputs) readers_[storage(t)].push_back(i);  // an alias read reads its storage
    for (TensorId t : w.initial_tensors()) take(t);
}

TensorId PlanBuilder::storage(TensorId t) const { return storage_of(w_, t); }

void PlanBuilder::take(TensorId t) {
    if (w_.tensors[t].alias_of >= 0 || live_[t]) return;
    live_[t] = 1;
    live_bytes_ += w_.tensors[t].bytes;
}

void PlanBuilder::drop(TensorId t) {
    if (!live_[t]) return;
    live_[t] = 0;
    live_bytes_ -= w_.tensors[t].bytes;
}

bool PlanBuilder::used_from(TensorId t, int from) const {
    const auto& r = readers_[t];
    return std::lower_bound(r.begin(), r.end(), from) != r.end();
}

double PlanBuilder::recompute_cost_ms(TensorId t) const {
    double cost = 0.0;
    std::vector<char> seen(w_.ops.size(), 0);
    std::vector<TensorId> stack{t};
    while (!stack.empty()) {
        const TensorId u = stack.back();
        stack.pop_back();
        const int op = w_.tensors[u].producer;
        if (op == kNoOp || seen[op]) continue;
        seen[op] = 1;
        cost += w_.ops[op].cost_ms;
        for (TensorId in : w_.ops[op].inputs)
            if (!live_[storage(in)]) stack.push_back(storage(in));
    }
    return cost;
}

void PlanBuilder::compute(int op) {
    plan_.push_back({StepKind::Compute, op, -1});
    for (TensorId t : w_.ops[op].outputs) take(t);
    for (TensorId t : w_.ops[op].release)
        if (w_.tensors[t].producer != kNoOp) drop(t);  // a source stays for recomputations
}

void PlanBuilder::regenerate(TensorId t, int for_op) {
    t = storage(t);  // an alias is back when its storage is
    if (live_[t]) return;
    const int op = w_.tensors[t].producer;
    if (op == kNoOp) throw std::logic_error("planner: tensor '" + w_.tensors[t].name + "' has no producer to recompute it");
    std::vector<TensorId> brought_back;
    for (TensorId in : w_.ops[op].inputs)
        if (!live_[storage(in)]) brought_back.push_back(storage(in));
    regenerate_inputs_of(op, for_op);
    // A recomputation re-creates every output; resident siblings are dropped first so no
    // tensor is allocated twice.
    for (TensorId u : w_.ops[op].outputs)
        if (live_[u]) release(u);
    for (TensorId in : w_.ops[op].inputs) ++pins_[storage(in)];
    if (before_recompute_) before_recompute_(op, for_op);
    for (TensorId in : w_.ops[op].inputs) --pins_[storage(in)];
    plan_.push_back({StepKind::Recompute, op, -1});
    recompute_ms_ += w_.ops[op].cost_ms;
    if (recompute_limit_ms_ > 0 && recompute_ms_ > recompute_limit_ms_)
        throw PlanStopped("thrash", fmt::format("the plan's recomputations pass the limit of {:.3f} ms while preparing op {} "
                                                "(policy.recompute.max_overhead, else 100, x the compute time)",
                                                recompute_limit_ms_, for_op));
    for (TensorId u : w_.ops[op].outputs) take(u);
    for (TensorId in : brought_back)
        if (free_chain_ancestors_ && !used_from(in, for_op)) dead_ancestors_.push_back(in);
}

bool PlanBuilder::release_dead_ancestor() {
    std::erase_if(dead_ancestors_, [&](TensorId t) { return !live_[t]; });  // released since
    const auto it = std::find_if(dead_ancestors_.begin(), dead_ancestors_.end(), [&](TensorId t) { return !pins_[t]; });
    if (it == dead_ancestors_.end()) return false;
    const TensorId t = *it;
    dead_ancestors_.erase(it);
    release(t);
    return true;
}

void PlanBuilder::regenerate_inputs_of(int producer, int for_op) {
    std::vector<TensorId> inputs;
    for (TensorId t : w_.ops[producer].inputs) inputs.push_back(storage(t));
    std::sort(inputs.begin(), inputs.end());
    inputs.erase(std::unique(inputs.begin(), inputs.end()), inputs.end());
    // An input regenerated first must survive the room made for the next one.
    for (TensorId t : inputs) ++pins_[t];
    for (TensorId t : inputs) regenerate(t, for_op);
    for (TensorId t : inputs) --pins_[t];
}

void PlanBuilder::regenerate_inputs(int op) {
    for (TensorId t : w_.ops[op].arrivals) take(t);  // constants declared just before this op
    regenerate_inputs_of(op, op);
    for (TensorId t : dead_ancestors_) release(t);
    dead_ancestors_.clear();
}

void PlanBuilder::release(TensorId t) {
    if (!live_[t]) return;
    plan_.push_back({StepKind::Release, -1, t});
    drop(t);
}

ExecPlan PlanBuilder::finish() const {
    const auto n = w_.tensors.size();
    std::vector<char> released_somewhere(n, 0), live(n, 0);
    for (const Op& op : w_.ops)
        for (TensorId t : op.release) released_somewhere[t] = 1;
    std::vector<std::ptrdiff_t> last_touch(n, -1);  // step of the latest allocation or use of the live copy
    for (TensorId t : w_.initial_tensors()) live[t] = 1;
    for (std::size_t s = 0; s < plan_.size(); ++s) {
        const PlanStep& step = plan_[s];
        const auto at = static_cast<std::ptrdiff_t>(s);
        if (step.kind == StepKind::Release) {
            live[step.tensor] = 0;
            continue;
        }
        const Op& op = w_.ops[step.op];
        if (step.kind == StepKind::Compute)
            for (TensorId t : op.arrivals) live[t] = 1;
        for (TensorId t : op.inputs) last_touch[storage(t)] = at;
        for (TensorId t : op.outputs) {
            live[t] = 1;
            last_touch[t] = at;
        }
        if (step.kind == StepKind::Compute)
            for (TensorId t : op.release)
                if (w_.tensors[t].producer != kNoOp) live[t] = 0;  // sources: freed after their last use below
    }
    std::vector<std::vector<TensorId>> after(plan_.size());
    for (TensorId t = 0; t < static_cast<TensorId>(n); ++t)
        if (live[t] && released_somewhere[t] && last_touch[t] >= 0) after[static_cast<std::size_t>(last_touch[t])].push_back(t);
    ExecPlan out;
    out.reserve(plan_.size());
    for (std::size_t s = 0; s < plan_.size(); ++s) {
        out.push_back(plan_[s]);
        for (TensorId t : after[s]) out.push_back({StepKind::Release, -1, t});
    }
    return out;
}

}  // namespace memsim
