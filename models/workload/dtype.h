// The precision an operator's arithmetic runs in: what the device model (docs/gpu_model.md)
// picks a peak rate by. Logs write PyTorch's dtype names ("float32", "float16",
// "bfloat16"); `unknown` where the source does not say.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace memsim {

enum class Dtype : std::uint8_t { unknown, fp32, fp16, bf16 };

constexpr std::string_view dtype_name(Dtype d) {
    switch (d) {
    case Dtype::fp32: return "fp32";
    case Dtype::fp16: return "fp16";
    case Dtype::bf16: return "bf16";
    case Dtype::unknown: break;
    }
    return "unknown";
}

// PyTorch's names, as a traced log writes them, and memsim's own short ones.
constexpr std::optional<Dtype> dtype_named(std::string_view name) {
    if (name == "float32" || name == "fp32") return Dtype::fp32;
    if (name == "float16" || name == "fp16") return Dtype::fp16;
    if (name == "bfloat16" || name == "bf16") return Dtype::bf16;
    return std::nullopt;
}

}  // namespace memsim
