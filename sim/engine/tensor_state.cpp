#include "sim/engine/tensor_state.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

#include <fmt/format.h>

namespace memsim {

TensorTable::TensorTable(const Workload& w, const ExecPlan& plan, double gpu_speed_scale)
    : w_(w),
      plan_(plan),
      speed_(gpu_speed_scale),
      state_(w.tensors.size()),
      use_begin_(w.tensors.size() + 1, 0),
      storage_of_(storage_map(w)) {
    // Two passes over the plan: count each storage's uses (a read of a view is one of its
    // storage's), then place them in step order. The index is 32-bit (half the memory a
    // tensor and a use cost); no workload that fits in memory comes near its limit, and
    // one that did would stop here rather than wrap.
    std::uint64_t uses = 0;
    for (const PlanStep& step : plan_) {
        if (step.kind != StepKind::Compute) continue;
        const auto& inputs = w_.ops[step.op].inputs;
        uses += inputs.size();
        for (TensorId t : inputs) ++use_begin_[storage_of_[t] + 1];
    }
    if (uses > std::numeric_limits<UseIndex>::max() || plan_.size() > std::numeric_limits<UseIndex>::max())
        throw std::length_error(
            fmt::format("the tensor table indexes at most {} reads and plan steps; this run has {} reads in {} steps",
                        std::numeric_limits<UseIndex>::max(), uses, plan_.size()));
    for (std::size_t t = 1; t < use_begin_.size(); ++t) use_begin_[t] += use_begin_[t - 1];
    use_steps_.resize(use_begin_.back());
    std::vector<UseIndex> next(use_begin_.begin(), use_begin_.end() - 1);
    for (std::size_t k = 0; k < plan_.size(); ++k) {
        const PlanStep& step = plan_[k];
        if (step.kind != StepKind::Compute) continue;
        for (TensorId t : w_.ops[step.op].inputs) use_steps_[next[storage_of_[t]]++] = static_cast<UseIndex>(k);
    }
}

std::optional<int> TensorTable::next_use_op(TensorId t) const {
    const std::size_t k = state_[t].next_use;
    if (k >= use_count(t)) return std::nullopt;
    return plan_[use_step(t, k)].op;
}

double TensorTable::ms_until_next_use(TensorId t, int op) const {
    const std::size_t k = state_[t].next_use;
    if (k >= use_count(t)) return compute_between(std::max(op, 0), static_cast<int>(w_.ops.size()));
    return compute_between(std::max(op, 0), std::max(plan_[use_step(t, k)].op, op));
}

// Victim scores ask this for every candidate at one op, and the sums run to uses far
// ahead: the running sums from `from` are kept and extended, so every candidate after
// the first costs O(1). They are added in the same order as a plain loop from `from`
// (a prefix-sum difference would round differently).
double TensorTable::compute_between(int from, int to) const {
    if (to <= from) return 0;
    if (from != sums_from_) {
        sums_from_ = from;
        sums_.assign(1, 0.0);
    }
    for (std::size_t k = sums_.size() - 1; static_cast<int>(k) < to - from; ++k)
        sums_.push_back(sums_.back() + w_.ops[from + static_cast<int>(k)].cost_ms / speed_);
    return sums_[static_cast<std::size_t>(to - from)];
}

}  // namespace memsim
