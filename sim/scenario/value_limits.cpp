#include "sim/scenario/value_limits.h"

#include <cmath>
#include <sstream>
#include <vector>

#include <fmt/format.h>

#include "models/workload/input_error.h"
#include "sim/scenario/set_origin.h"

namespace memsim {

namespace {

// The value as the scenario wrote it (after --set), for the message.
std::string written(const Scenario& s, const std::string& dotted) {
    // yaml-cpp nodes are handles: walk down with fresh const handles, never assigning one.
    std::vector<YAML::Node> chain{s.resolved};
    std::stringstream parts(dotted);
    for (std::string part; std::getline(parts, part, '.');) {
        const YAML::Node& up = chain.back();
        if (!up.IsMap()) return "";
        const YAML::Node next = up[part];
        if (!next) return "";
        chain.push_back(next);
    }
    return chain.back().IsScalar() ? chain.back().Scalar() : "";
}

void check_range(const Scenario& s, const std::string& key, double value, double low, double high, const char* unit) {
    if (std::isfinite(value) && value >= low && value <= high) return;
    const std::string text = written(s, key);
    throw InputError(fmt::format("{}: {}: {}{} is out of range [{:g}, {:g}]{}", key_origin(s.file, s.overrides, key), key,
                                 text.empty() ? "" : "'" + text + "' = ", fmt::format("{:g}{}", value, unit), low, high,
                                 unit));
}

}  // namespace

void check_value_limits(const Scenario& s) {
    const PlatformSpec& p = s.platform;
    check_range(s, "platform.gpu.speed_scale", p.gpu_speed_scale, kMinSpeedScale, kMaxSpeedScale, "");
    for (std::size_t i = 0; i < p.disks.size(); ++i) {
        const std::string key = fmt::format("platform.disks[{}].", i);
        const DiskSpec& d = p.disks[i];
        check_range(s, key + "read_bandwidth", d.read_bytes_per_s, kMinRateBytesPerS, kMaxRateBytesPerS, " B/s");
        check_range(s, key + "write_bandwidth", d.write_bytes_per_s, kMinRateBytesPerS, kMaxRateBytesPerS, " B/s");
        check_range(s, key + "read_latency", d.read_latency_ms, 0.0, kMaxLatencyMs, " ms");
        check_range(s, key + "write_latency", d.write_latency_ms, 0.0, kMaxLatencyMs, " ms");
    }
    // disk.bandwidth sets both directions; name the key the scenario wrote (platform.disks:
    // each entry is checked below, the first one is also `disk`).
    const bool both_bw = !written(s, "platform.disk.bandwidth").empty();
    check_range(s, both_bw ? "platform.disk.bandwidth" : "platform.disk.read_bandwidth", p.disk.read_bytes_per_s,
                kMinRateBytesPerS, kMaxRateBytesPerS, " B/s");
    check_range(s, both_bw ? "platform.disk.bandwidth" : "platform.disk.write_bandwidth", p.disk.write_bytes_per_s,
                kMinRateBytesPerS, kMaxRateBytesPerS, " B/s");
    const bool both_lat = !written(s, "platform.disk.latency").empty();
    check_range(s, both_lat ? "platform.disk.latency" : "platform.disk.read_latency", p.disk.read_latency_ms, 0.0,
                kMaxLatencyMs, " ms");
    check_range(s, both_lat ? "platform.disk.latency" : "platform.disk.write_latency", p.disk.write_latency_ms, 0.0,
                kMaxLatencyMs, " ms");
    if (p.host_link) {
        check_range(s, "platform.host.link.bandwidth", p.host_link->bytes_per_s, kMinRateBytesPerS, kMaxRateBytesPerS, " B/s");
        check_range(s, "platform.host.link.latency", p.host_link->latency_ms, 0.0, kMaxLatencyMs, " ms");
    }
    if (p.host_cpu) {
        check_range(s, "platform.host.cpu.speed", p.host_cpu->flops, kMinPeakFlops, kMaxPeakFlops, " flop/s");
        check_range(s, "platform.host.cpu.memory_bandwidth", p.host_cpu->memory_bytes_per_s, kMinRateBytesPerS, kMaxRateBytesPerS,
                    " B/s");
    }
    if (p.nvlink) {
        check_range(s, "platform.nvlink.bandwidth", p.nvlink->bytes_per_s, kMinRateBytesPerS, kMaxRateBytesPerS, " B/s");
        check_range(s, "platform.nvlink.latency", p.nvlink->latency_ms, 0.0, kMaxLatencyMs, " ms");
    }
    if (p.gpus_per_switch > 0)
        check_range(s, "platform.switch.bandwidth", p.switch_bytes_per_s, kMinRateBytesPerS, kMaxRateBytesPerS, " B/s");
    check_range(s, "platform.gpu_offset_ms", p.gpu_offset_ms, 0.0, kMaxLatencyMs, " ms");
    if (p.gpu_model) {
        // A device model's numbers: any real or imagined GPU, nothing the roofline cannot divide by.
        check_range(s, "platform.gpu.peak_flops.fp32", p.gpu_model->fp32_flops, kMinPeakFlops, kMaxPeakFlops, " flop/s");
        if (p.gpu_model->bf16_flops) check_range(s, "platform.gpu.peak_flops.bf16", *p.gpu_model->bf16_flops, kMinPeakFlops, kMaxPeakFlops, " flop/s");
        if (p.gpu_model->fp16_flops) check_range(s, "platform.gpu.peak_flops.fp16", *p.gpu_model->fp16_flops, kMinPeakFlops, kMaxPeakFlops, " flop/s");
        check_range(s, "platform.gpu.memory_bandwidth", p.gpu_model->memory_bytes_per_s, kMinRateBytesPerS, kMaxRateBytesPerS, " B/s");
        check_range(s, "platform.gpu.launch_overhead", p.gpu_model->launch_overhead_ms, 0.0, kMaxLatencyMs, " ms");
    }
    if (p.memory_budget_ratio)
        check_range(s, "platform.memory.budget_ratio", *p.memory_budget_ratio, 0.0, kMaxBudgetRatio, "");
    if (s.policy.recompute.max_overhead)
        check_range(s, "policy.recompute.max_overhead", *s.policy.recompute.max_overhead, 0.0, kMaxOverhead, "");
    for (const auto& [key, value] : s.workload.synthetic_params)
        check_range(s, "workload." + key, value, 0.0, key == "seed" ? 9007199254740992.0 : kMaxSyntheticParam, "");
}

}  // namespace memsim
