// A GPU as the device model sees it (platform.gpu: a preset or its numbers written
// out; docs/gpu_model.md). Plain data: the scenario parser fills it, the workload
// loader times operators with it (models/platform/gpu_model.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace memsim {

struct GpuSpec {
    std::string preset;  // the preset's name, "" when every number was written out
    double fp32_flops = 0;                 // flop/s
    std::optional<double> bf16_flops;      // flop/s; unset: the GPU has no bf16 arithmetic
    std::optional<double> fp16_flops;      // flop/s
    double memory_bytes_per_s = 0;
    double launch_overhead_ms = 0;
    std::uint64_t memory_bytes = 0;        // device memory (a preset's; 0 when not given)
};

// One row per preset (models/platform/gpu_presets.cpp; sources in docs/gpu_model.md).
struct GpuPreset {
    std::string_view name;
    std::string_view summary;  // the product, as its datasheet names it
    GpuSpec spec;
};
const std::vector<GpuPreset>& gpu_presets();
// The preset named `name`, or nullptr.
const GpuSpec* find_gpu_preset(std::string_view name);
std::vector<std::string> gpu_preset_names();

}  // namespace memsim
