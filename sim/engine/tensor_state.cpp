#include "sim/engine/tensor_state.h"

#include <algorithm>

namespace memsim {

TensorTable::TensorTable(const Workload& w, const ExecPlan& plan, double gpu_speed_scale)
    : w_(w), plan_(plan), speed_(gpu_speed_scale), state_(w.tensors.size()), uses_(w.tensors.size()) {
    for (std::size_t k = 0; k < plan_.size(); ++k) {
        const PlanStep& step = plan_[k];
        if (step.kind != StepKind::Compute) continue;
        for (TensorId t : w_.ops[step.op].inputs) uses_[t].push_back(k);
    }
}

std::optional<int> TensorTable::next_use_op(TensorId t) const {
    const std::size_t k = state_[t].next_use;
    if (k >= uses_[t].size()) return std::nullopt;
    return plan_[uses_[t][k]].op;
}

double TensorTable::ms_until_next_use(TensorId t, int op) const {
    const auto& u = uses_[t];
    const std::size_t k = state_[t].next_use;
    if (k >= u.size()) return compute_between(std::max(op, 0), static_cast<int>(w_.ops.size()));
    return compute_between(std::max(op, 0), std::max(plan_[u[k]].op, op));
}

double TensorTable::compute_between(int from, int to) const {
    double ms = 0;
    for (int k = from; k < to; ++k) ms += w_.ops[k].cost_ms / speed_;
    return ms;
}

}  // namespace memsim
