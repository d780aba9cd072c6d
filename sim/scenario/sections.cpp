#include "sim/scenario/sections.h"

#include "sim/scenario/data_parallel_section.h"
#include "sim/scenario/output_name.h"
#include "sim/scenario/output_table.h"
#include "sim/scenario/policy_choice.h"
#include "sim/scenario/units.h"
#include "sim/scenario/node_section.h"

#include <fmt/ranges.h>

namespace memsim {

namespace {

// platform.gpu's device model (docs/gpu_model.md): a preset, its numbers written out, or
// a preset with some of them replaced. Absent (speed_scale alone): no device model.
std::optional<GpuSpec> parse_gpu(const YAML::Node& g, const Parser& p) {
    if (!g || !g.IsMap()) return std::nullopt;
    const bool any = g["preset"] || g["peak_flops"] || g["memory_bandwidth"] || g["launch_overhead"] || g["memory"];
    if (!any) return std::nullopt;
    GpuSpec gpu;
    if (g["preset"]) gpu = *find_gpu_preset(p.choice(g["preset"], "platform.gpu.preset", gpu_preset_names()));
    else {
        // Written out: every number the roofline needs, so none is a silent default.
        for (const char* key : {"peak_flops", "memory_bandwidth", "launch_overhead"})
            if (!g[key])
                p.fail(std::string("platform.gpu.") + key,
                       fmt::format("missing: without platform.gpu.preset give peak_flops (fp32 at least), memory_bandwidth "
                                   "and launch_overhead, or name a preset ({})", fmt::join(gpu_preset_names(), ", ")));
        if (!g["peak_flops"].IsMap() || !g["peak_flops"]["fp32"])
            p.fail("platform.gpu.peak_flops.fp32", "missing: the fp32 peak in flop/s (e.g. 19.5e12)");
    }
    if (const YAML::Node f = g["peak_flops"]; f && f.IsMap()) {
        auto peak = [&](const char* dtype) {
            const std::string key = std::string("platform.gpu.peak_flops.") + dtype;
            const double v = p.scalar<double>(f[dtype], key, "a number of flop/s");
            if (!(v > 0)) p.fail(key, fmt::format("{:g} must be > 0 flop/s", v));
            return v;
        };
        if (f["fp32"]) gpu.fp32_flops = peak("fp32");
        if (f["bf16"]) gpu.bf16_flops = peak("bf16");
        if (f["fp16"]) gpu.fp16_flops = peak("fp16");
    }
    if (g["memory_bandwidth"]) gpu.memory_bytes_per_s = p.with_units(g["memory_bandwidth"], "platform.gpu.memory_bandwidth", parse_rate_bytes_per_s);
    if (g["launch_overhead"]) gpu.launch_overhead_ms = p.with_units(g["launch_overhead"], "platform.gpu.launch_overhead", parse_time_ms);
    if (g["memory"]) gpu.memory_bytes = p.with_units(g["memory"], "platform.gpu.memory", parse_bytes);
    if (g["preset"] && (g["peak_flops"] || g["memory_bandwidth"] || g["launch_overhead"] || g["memory"]))
        gpu.preset += " (modified)";
    return gpu;
}

}  // namespace

WorkloadSpec parse_workload(const YAML::Node& n, const Parser& p) {
    WorkloadSpec w;
    if (!n || !n.IsMap()) p.fail("workload", "missing: give a profile folder + batch, a dtr_log, a torch_snapshot, or a synthetic model");
    const int sources = (n["profile"] ? 1 : 0) + (n["dtr_log"] ? 1 : 0) + (n["synthetic"] ? 1 : 0) + (n["torch_snapshot"] ? 1 : 0);
    if (sources != 1) p.fail("workload", "give exactly one of profile, dtr_log, torch_snapshot, synthetic");
    if (n["profile"]) {
        w.profile = p.path(n["profile"], "workload.profile");
        if (!n["batch"]) p.fail("workload.batch", "missing (the profile's batch size: add --set workload.batch=N, or set "
                                                "both at once: --set 'workload={profile: DIR, batch: N}')");
        w.batch = p.scalar<int>(n["batch"], "workload.batch", "an integer");
        if (w.batch <= 0) p.fail("workload.batch", fmt::format("{} must be >= 1", w.batch));
    }
    if (n["dtr_log"]) w.dtr_log = p.path(n["dtr_log"], "workload.dtr_log");
    // A log or a snapshot records one iteration as it ran: a key that would shape another
    // (a profile's batch, a synthetic model's sizes) cannot apply, and is refused rather
    // than ignored.
    if (n["dtr_log"] || n["torch_snapshot"])
        for (const char* key : {"batch", "n", "layers", "width", "seed", "input", "classes"})
            if (n[key])
                p.fail(std::string("workload.") + key,
                       fmt::format("does not apply to a {}: it records one iteration at the batch and sizes it ran "
                                   "with{} (workload.{} is for profile folders and synthetic models)",
                                   n["dtr_log"] ? "DTR log" : "torch snapshot",
                                   n["dtr_log"] ? "; trace again with `memsim trace --batch N` for another batch" : "", key));
    if (n["torch_snapshot"]) w.torch_snapshot = p.path(n["torch_snapshot"], "workload.torch_snapshot");
    if (n["synthetic"]) {
        w.synthetic = p.text(n["synthetic"], "workload.synthetic");
        for (const char* key : {"n", "layers", "width", "seed", "batch", "input", "classes", "hidden", "heads", "seq", "vocab"})
            if (n[key]) w.synthetic_params[key] = p.scalar<double>(n[key], std::string("workload.") + key, "a number");
        // The words of the gpt kind; its generator checks which kinds take them.
        if (n["precision"]) w.synthetic_words["precision"] = p.choice(n["precision"], "workload.precision", {"fp32", "mixed"});
        if (n["checkpointing"])
            w.synthetic_words["checkpointing"] = p.choice(n["checkpointing"], "workload.checkpointing", {"none", "selective", "full"});
        if (n["dropout"])
            w.synthetic_words["dropout"] = p.scalar<bool>(n["dropout"], "workload.dropout", "true or false") ? "true" : "false";
    }
    if (n["forward_end"]) w.forward_end = p.scalar<int>(n["forward_end"], "workload.forward_end", "an integer");
    if (n["costs"]) {
        w.costs = p.choice(n["costs"], "workload.costs", {"measured", "recorded", "linear_fit", "device"});
        if (w.costs == "recorded") w.costs = "measured";  // the same: the source's own times
        if (w.costs == "linear_fit" && !n["profile"]) p.fail("workload.costs", "linear_fit applies to profile folders only");
    }
    return w;
}

PlatformSpec parse_platform(const YAML::Node& n, const Parser& p) {
    PlatformSpec s;
    if (!n) return s;
    if (n["name"]) s.name = p.text(n["name"], "platform.name");
    if (n["gpu"] && n["gpu"]["speed_scale"]) {
        s.gpu_speed_scale = p.scalar<double>(n["gpu"]["speed_scale"], "platform.gpu.speed_scale", "a number");
        if (!(s.gpu_speed_scale > 0)) p.fail("platform.gpu.speed_scale", "must be > 0");
    }
    s.gpu_model = parse_gpu(n["gpu"], p);
    if (n["disk"]) s.disk = parse_disk(n["disk"], p, "platform.disk");
    parse_node_keys(n, p, s);
    if (n["memory"] && n["memory"]["budget"]) {
        const YAML::Node b = n["memory"]["budget"];
        if (!(b.IsScalar() && (b.as<std::string>() == "none" || b.as<std::string>() == "unlimited")))
            s.memory_budget = p.with_units(b, "platform.memory.budget", parse_bytes);
    }
    if (n["memory"] && n["memory"]["allow_ratio_above_one"])
        s.allow_ratio_above_one =
            p.scalar<bool>(n["memory"]["allow_ratio_above_one"], "platform.memory.allow_ratio_above_one", "true or false");
    if (n["memory"] && n["memory"]["budget_ratio"]) {
        s.memory_budget_ratio = p.scalar<double>(n["memory"]["budget_ratio"], "platform.memory.budget_ratio", "a number");
        const double ratio = *s.memory_budget_ratio;
        if (!(ratio > 0))
            p.fail("platform.memory.budget_ratio", fmt::format("{:g} is not in (0, 1]: a budget is a positive fraction of the "
                                                               "workload's live-bytes peak", ratio));
        if (ratio > 1 && !s.allow_ratio_above_one)
            p.fail("platform.memory.budget_ratio",
                   fmt::format("{:g} is above 1: more memory than the workload ever holds, so the budget never binds; "
                               "set platform.memory.allow_ratio_above_one: true if you mean it", ratio));
        if (s.memory_budget)
            p.fail("platform.memory.budget_ratio", "give either platform.memory.budget or platform.memory.budget_ratio, not both");
    }
    return s;
}

PolicySpec parse_policy(const YAML::Node& n, const Parser& p) {
    PolicySpec s;
    if (!n) return s;
    parse_policy_choices(n, p, s);  // every family's row and parameters (policy_choice.h)
    if (n["hybrid"]) s.hybrid = p.scalar<bool>(n["hybrid"], "policy.hybrid", "true or false");
    s.data_parallel = parse_data_parallel(n["data_parallel"], p);
    if (const YAML::Node r = n["recompute"]; r && r["max_overhead"]) {
        s.recompute.max_overhead = p.scalar<double>(r["max_overhead"], "policy.recompute.max_overhead", "a number");
        if (!(*s.recompute.max_overhead > 0)) p.fail("policy.recompute.max_overhead", "must be > 0");
    }
    return s;
}

OutputSpec parse_output(const YAML::Node& n, const Parser& p, const std::string& name) {
    OutputSpec s;
    s.dir = "out/" + output_folder_name(name);
    if (!n) return s;
    if (n["dir"]) s.dir = p.text(n["dir"], "output.dir");
    for (const OutputRow& row : output_table()) {
        if (row.always) continue;
        const std::string key(row.name);
        if (n[key] && p.scalar<bool>(n[key], output_key(row), "true or false")) s.on.insert(key);
    }
    return s;
}

}  // namespace memsim
