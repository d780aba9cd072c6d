#include "models/platform/gpu_model.h"

#include <algorithm>

#include <fmt/format.h>

#include "models/workload/input_error.h"

namespace memsim {

std::optional<double> peak_flops(const GpuSpec& gpu, Dtype dtype) {
    switch (dtype) {
        case Dtype::bf16: return gpu.bf16_flops;
        case Dtype::fp16: return gpu.fp16_flops;
        case Dtype::fp32:
        case Dtype::unknown: break;
    }
    return gpu.fp32_flops;
}

double roofline_ms(const GpuSpec& gpu, double flops, double bytes_moved, Dtype dtype, const std::string& what) {
    const std::optional<double> peak = peak_flops(gpu, dtype);
    if (!peak)
        throw InputError(fmt::format("{}: the GPU{} has no {} peak (platform.gpu.peak_flops.{})", what,
                                     gpu.preset.empty() ? "" : " " + gpu.preset, dtype_name(dtype), dtype_name(dtype)));
    const double compute_s = flops / *peak;
    const double memory_s = bytes_moved / gpu.memory_bytes_per_s;
    return std::max(compute_s, memory_s) * 1e3 + gpu.launch_overhead_ms;
}

void apply_device_costs(Workload& w, const GpuSpec& gpu, const std::string& where) {
    const bool any = std::any_of(w.ops.begin(), w.ops.end(), [](const Op& op) { return op.flops > 0 || op.bytes_moved > 0; });
    if (!any)
        throw InputError(fmt::format("{}: device: {} records no operator's FLOPs or bytes (a log needs the FLOPS and BYTES "
                                     "keys `memsim trace` writes; docs/gpu_model.md)",
                                     where, w.source));
    for (std::size_t i = 0; i < w.ops.size(); ++i) {
        Op& op = w.ops[i];
        // No FLOPs and no bytes: a view or a reshape, no kernel to launch.
        if (op.flops <= 0 && op.bytes_moved <= 0) {
            op.cost_ms = 0;
            continue;
        }
        op.cost_ms = roofline_ms(gpu, op.flops, op.bytes_moved, op.dtype,
                                 fmt::format("{}: device: op {} ({})", where, i, op.name));
    }
    w.cost_note = fmt::format("device model: roofline on {}", gpu.preset.empty() ? "the platform's GPU" : gpu.preset);
}

}  // namespace memsim
