// parameters, optimizer_state, roles: the tensors of the roles named (tensor_role.h), each
// out over its longest idle gap. Constants included: a parameter read in the forward and
// again in the backward, an optimizer state read only by the step, leave the GPU between
// uses like any activation (docs/swap.md, "Swapping by role"). Uses are storage reads (the
// engine plans on with_storage_reads), so a read through a view counts.
//
// A storage's gaps: from its arrival (op 0 for a constant resident from the start, the op
// producing it otherwise) to its first read, and between consecutive reads; a gap holds
// at least one op. The longest by compute time is taken (ties: the earliest): out after
// the op opening it, in for the read closing it. One gap per storage: the engine swaps
// each tensor out and in once per plan.
#include <algorithm>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>

#include "models/swap/selection/swap_selection.h"

namespace memsim {

namespace {

class RoleSelection final : public SwapSelection {
public:
    explicit RoleSelection(std::vector<TensorRole> roles) : roles_(std::move(roles)) {}

    SwapPlan plan(const Workload& w, const SelectionInputs& /*in*/) const override {
        const int n = static_cast<int>(w.ops.size());
        std::vector<double> time_before(static_cast<std::size_t>(n) + 1, 0.0);
        for (int i = 0; i < n; ++i) time_before[i + 1] = time_before[i] + w.ops[i].cost_ms;
        std::vector<std::vector<int>> reads(w.tensors.size());
        for (int i = 0; i < n; ++i)
            for (TensorId t : w.ops[i].inputs)
                if (reads[t].empty() || reads[t].back() != i) reads[t].push_back(i);
        std::vector<int> arrival(w.tensors.size(), -1);
        for (TensorId t : w.initial_tensors()) arrival[t] = 0;
        for (int i = 0; i < n; ++i) {
            for (TensorId t : w.ops[i].arrivals) arrival[t] = i;
            for (TensorId t : w.ops[i].outputs) arrival[t] = i;
        }
        SwapPlan plan = empty_swap_plan(w);
        for (TensorId t = 0; t < static_cast<TensorId>(w.tensors.size()); ++t) {
            const Tensor& tensor = w.tensors[t];
            if (tensor.alias_of >= 0 || tensor.scratch || arrival[t] < 0 || !wanted(tensor.role)) continue;
            int best_out = -1, best_in = -1;
            double best_ms = 0;
            int from = arrival[t];
            for (int read : reads[t]) {
                // A constant resident from the start and first read by op 0 has no gap there.
                if (read > from + 1) {
                    const double ms = time_before[read] - time_before[from + 1];
                    if (best_out < 0 || ms > best_ms) {
                        best_out = from;
                        best_in = read;
                        best_ms = ms;
                    }
                }
                from = std::max(from, read);
            }
            if (best_out < 0) continue;
            plan.out_after[best_out].push_back(t);
            plan.in_for[best_in].push_back(t);
            plan.selected.push_back(t);
            plan.selected_bytes += tensor.bytes;
        }
        return plan;
    }

    [[nodiscard]] std::vector<TensorRole> moved_roles() const override { return roles_; }

private:
    [[nodiscard]] bool wanted(TensorRole r) const { return std::find(roles_.begin(), roles_.end(), r) != roles_.end(); }
    std::vector<TensorRole> roles_;
};

// "optimizer_state, parameter" -> the roles; an unknown name is an invalid_argument the
// scenario check reports under policy.swap.select.
std::vector<TensorRole> parse_roles(const std::string& text) {
    std::vector<TensorRole> roles;
    std::string name;
    std::istringstream in(text);
    while (std::getline(in, name, ',')) {
        name.erase(0, name.find_first_not_of(" \t"));
        name.erase(name.find_last_not_of(" \t") + 1);
        const std::optional<TensorRole> role = role_named(name);
        if (!role) {
            std::string known;
            for (TensorRole r : kTensorRoles) known += (known.empty() ? "" : ", ") + std::string(role_name(r));
            throw std::invalid_argument(fmt::format("roles: '{}' is not a role (roles: {})", name, known));
        }
        if (std::find(roles.begin(), roles.end(), *role) == roles.end()) roles.push_back(*role);
    }
    if (roles.empty()) throw std::invalid_argument("roles: name at least one role, separated by commas");
    return roles;
}

}  // namespace

std::unique_ptr<SwapSelection> make_parameters_selection(const PolicyParams&) {
    return std::make_unique<RoleSelection>(std::vector{TensorRole::parameter});
}

std::unique_ptr<SwapSelection> make_optimizer_state_selection(const PolicyParams&) {
    return std::make_unique<RoleSelection>(std::vector{TensorRole::optimizer_state});
}

std::unique_ptr<SwapSelection> make_roles_selection(const PolicyParams& params) {
    return std::make_unique<RoleSelection>(parse_roles(params.text("roles")));
}

}  // namespace memsim
