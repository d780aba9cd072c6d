#include "models/workload/dtr_log_roles.h"

#include <algorithm>

#include <fmt/format.h>

namespace memsim {

namespace {

// The inference (docs/workloads.md, "Roles"). The optimizer step is every in-place write
// to a constant (MUTATE, or an operator named "*_" on its first argument) after the last
// micro-batch's BACKWARD; from its first such write on, ops belong to the step.
class RoleInference {
public:
    RoleInference(const Workload& w, const DtrWrites& writes) : w_(w), writes_(writes) {}

    std::vector<TensorRole> roles(std::string& rule) {
        const int n = static_cast<int>(w_.ops.size());
        const auto tensors = static_cast<TensorId>(w_.tensors.size());
        const int last_forward_end = w_.micro_batches.empty() ? w_.forward_end : w_.micro_batches.back().forward_end;
        std::vector<TensorRole> role(static_cast<std::size_t>(tensors), TensorRole::other);
        std::vector<char> read_in_forward(role.size(), 0), written_in_step(role.size(), 0), used_before_step(role.size(), 0),
            used_in_step(role.size(), 0);
        int step_first = n;
        for (int i = last_forward_end; i < n && step_first == n; ++i)
            for (TensorId s : writes_.by_op[i])
                if (w_.tensors[root(s)].constant) step_first = i;
        for (int i = 0; i < n; ++i) {
            const Op& op = w_.ops[i];
            for (TensorId t : op.inputs) {
                const TensorId r = root(storage(t));
                if (in_forward(i)) read_in_forward[r] = 1;
                (i < step_first ? used_before_step : used_in_step)[r] = 1;
            }
            if (i >= step_first)
                for (TensorId s : writes_.by_op[i]) written_in_step[root(s)] = used_in_step[root(s)] = 1;
        }
        int parameters = 0, states = 0, gradients = 0;
        for (TensorId t = 0; t < tensors; ++t) {
            if (!w_.tensors[t].constant || w_.tensors[t].alias_of >= 0) continue;
            if (written_in_step[t] && read_in_forward[t]) role[t] = TensorRole::parameter, ++parameters;
            else if (used_in_step[t] && !used_before_step[t]) role[t] = TensorRole::optimizer_state, ++states;
        }
        // Gradients: what the step reads that the backward made (and its earlier versions).
        for (int i = step_first; i < n; ++i)
            for (TensorId t : w_.ops[i].inputs) {
                const TensorId s = storage(t);
                const int producer = w_.tensors[s].producer;
                if (w_.tensors[root(s)].constant || producer == kNoOp || producer >= step_first || in_forward(producer))
                    continue;
                for (TensorId v = s; v >= 0; v = writes_.previous_version[v]) {
                    gradients += role[v] != TensorRole::gradient;
                    role[v] = TensorRole::gradient;
                }
            }
        for (TensorId t = 0; t < tensors; ++t) {
            const Tensor& x = w_.tensors[t];
            if (x.alias_of >= 0 || role[t] != TensorRole::other) continue;
            if (x.producer != kNoOp && in_forward(x.producer)) role[t] = TensorRole::activation;
            else if (writes_.previous_version[t] >= 0) role[t] = role[root(t)];  // a constant's new version
        }
        for (TensorId t = 0; t < tensors; ++t)
            if (w_.tensors[t].alias_of >= 0) role[t] = role[w_.tensors[t].alias_of];
        if (step_first == n)
            rule = "no optimizer step in the log (no in-place write to a constant after the last BACKWARD): constants "
                   "are 'other'; activations = outputs of forward ops";
        else
            rule = fmt::format("the optimizer step (in-place writes to constants after the last BACKWARD, from op {}): "
                               "parameters = constants the forward reads and the step writes ({}); optimizer state = "
                               "constants only the step uses ({}); gradients = backward outputs the step reads ({}); "
                               "activations = outputs of forward ops; the rest 'other'",
                               step_first, parameters, states, gradients);
        return role;
    }

private:
    TensorId storage(TensorId t) const { return w_.tensors[t].alias_of >= 0 ? w_.tensors[t].alias_of : t; }
    TensorId root(TensorId s) const {
        while (writes_.previous_version[s] >= 0) s = writes_.previous_version[s];
        return s;
    }
    // In a micro-batch's forward pass (the first op to its forward_end).
    bool in_forward(int op) const {
        if (w_.micro_batches.empty()) return op < w_.forward_end;
        return std::any_of(w_.micro_batches.begin(), w_.micro_batches.end(),
                           [&](const MicroBatch& m) { return op >= m.first_op && op < m.forward_end; });
    }

    const Workload& w_;
    const DtrWrites& writes_;
};

}  // namespace

void assign_dtr_roles(Workload& w, const std::vector<char>& recorded, const DtrWrites& writes) {
    const auto given = static_cast<std::size_t>(std::count(recorded.begin(), recorded.end(), 1));
    if (given == w.tensors.size()) {
        w.role_rule = "recorded in the log (ROLE, ROLES)";
        return;
    }
    std::string rule;
    const std::vector<TensorRole> inferred = RoleInference(w, writes).roles(rule);
    for (std::size_t t = 0; t < w.tensors.size(); ++t)
        if (!recorded[t]) w.tensors[t].role = inferred[t];
    w.role_rule = given == 0 ? "inferred from " + rule
                             : fmt::format("recorded in the log (ROLE, ROLES) for {} of {} tensors; the rest inferred from {}",
                                           given, w.tensors.size(), rule);
}

}  // namespace memsim
