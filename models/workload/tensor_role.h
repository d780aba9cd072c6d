// What a tensor is to the training step: the split PyTorch users reason in (weights,
// their gradients, the optimizer's state, saved activations, the batch). Sources record it
// where they know it (a traced log, a synthetic model, an MNN profile's weights) and
// memsim infers it where it can (docs/workloads.md, "Roles"); `other` is workspace and
// everything no rule decided.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace memsim {

enum class TensorRole : std::uint8_t { other, parameter, gradient, optimizer_state, activation, input };

inline constexpr std::array<TensorRole, 6> kTensorRoles = {TensorRole::parameter,       TensorRole::gradient,
                                                           TensorRole::optimizer_state, TensorRole::activation,
                                                           TensorRole::input,           TensorRole::other};

// The name a log, a scenario and every output write (`bytes_by_role` keys).
constexpr std::string_view role_name(TensorRole r) {
    switch (r) {
    case TensorRole::parameter: return "parameter";
    case TensorRole::gradient: return "gradient";
    case TensorRole::optimizer_state: return "optimizer_state";
    case TensorRole::activation: return "activation";
    case TensorRole::input: return "input";
    case TensorRole::other: break;
    }
    return "other";
}

constexpr std::optional<TensorRole> role_named(std::string_view name) {
    for (TensorRole r : kTensorRoles)
        if (role_name(r) == name) return r;
    return std::nullopt;
}

}  // namespace memsim
