#include "sim/scenario/sections.h"

#include "models/allocators.h"
#include "models/recompute/eviction_heuristic.h"
#include "models/recompute/recompute_planner.h"
#include "models/swap/prefetch/prefetch_rule.h"
#include "sim/scenario/output_name.h"
#include "sim/scenario/units.h"

namespace memsim {

WorkloadSpec parse_workload(const YAML::Node& n, const Parser& p) {
    WorkloadSpec w;
    if (!n || !n.IsMap()) p.fail("workload", "missing: give a profile folder + batch, a dtr_log, or a synthetic model");
    const int sources = (n["profile"] ? 1 : 0) + (n["dtr_log"] ? 1 : 0) + (n["synthetic"] ? 1 : 0);
    if (sources != 1) p.fail("workload", "give exactly one of profile, dtr_log, synthetic");
    if (n["profile"]) {
        w.profile = p.path(n["profile"], "workload.profile");
        if (!n["batch"]) p.fail("workload.batch", "missing (the profile's batch size: add --set workload.batch=N, or set "
                                                "both at once: --set 'workload={profile: DIR, batch: N}')");
        w.batch = p.scalar<int>(n["batch"], "workload.batch", "an integer");
        if (w.batch <= 0) p.fail("workload.batch", fmt::format("{} must be >= 1", w.batch));
    }
    if (n["dtr_log"]) w.dtr_log = p.path(n["dtr_log"], "workload.dtr_log");
    if (n["synthetic"]) {
        w.synthetic = p.text(n["synthetic"], "workload.synthetic");
        for (const char* key : {"n", "layers", "width", "seed", "batch", "input", "classes"})
            if (n[key]) w.synthetic_params[key] = p.scalar<double>(n[key], std::string("workload.") + key, "a number");
    }
    if (n["forward_end"]) w.forward_end = p.scalar<int>(n["forward_end"], "workload.forward_end", "an integer");
    if (n["costs"]) {
        if (!n["profile"]) p.fail("workload.costs", "applies to profile folders only");
        w.costs = p.choice(n["costs"], "workload.costs", {"measured", "linear_fit"});
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
    if (const YAML::Node d = n["disk"]) {
        if (d["bandwidth"])
            s.disk.read_bytes_per_s = s.disk.write_bytes_per_s =
                p.with_units(d["bandwidth"], "platform.disk.bandwidth", parse_rate_bytes_per_s);
        if (d["read_bandwidth"])
            s.disk.read_bytes_per_s = p.with_units(d["read_bandwidth"], "platform.disk.read_bandwidth", parse_rate_bytes_per_s);
        if (d["write_bandwidth"])
            s.disk.write_bytes_per_s = p.with_units(d["write_bandwidth"], "platform.disk.write_bandwidth", parse_rate_bytes_per_s);
        if (d["latency"])
            s.disk.read_latency_ms = s.disk.write_latency_ms = p.with_units(d["latency"], "platform.disk.latency", parse_time_ms);
        if (d["read_latency"]) s.disk.read_latency_ms = p.with_units(d["read_latency"], "platform.disk.read_latency", parse_time_ms);
        if (d["write_latency"])
            s.disk.write_latency_ms = p.with_units(d["write_latency"], "platform.disk.write_latency", parse_time_ms);
    }
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

PrefetchSpec parse_prefetch(const YAML::Node& n, const Parser& p) {
    PrefetchSpec s;
    const std::string key = "policy.swap.prefetch";
    if (n.IsScalar()) {
        const std::string v = p.text(n, key);
        const PrefetchRow* row = find_row(prefetch_rules(), v);
        if (row && row->make.param == PrefetchParam::None) {
            s.rule = v;
            return s;
        }
        // "lead_ops:4" / "lead_ms:20ms" written inline (handy in sweeps)
        const auto colon = v.find(':');
        if (colon != std::string::npos) {
            YAML::Node m;
            m[v.substr(0, colon)] = v.substr(colon + 1);
            return parse_prefetch(m, p);
        }
        p.fail(key, fmt::format("unknown value '{}'{}", v, Parser::suggestion(v, prefetch_usages())));
    }
    if (n.IsMap() && n.size() == 1) {
        const std::string name = n.begin()->first.as<std::string>();
        const PrefetchRow* row = find_row(prefetch_rules(), name);
        if (row && row->make.param == PrefetchParam::Ops) {
            s.rule = name;
            s.lead_ops = p.scalar<int>(n[name], key + "." + name, "an integer");
            if (s.lead_ops < 0) p.fail(key + "." + name, "must be >= 0");
            return s;
        }
        if (row && row->make.takes_cap && n[name].IsMap()) {
            s.rule = name;
            const std::string cap_key = key + "." + name + ".cap";
            if (!n[name]["cap"]) p.fail(key + "." + name, "expected {cap: SIZE} (e.g. {cap: 300MiB})");
            s.cap_bytes = p.with_units(n[name]["cap"], cap_key, parse_bytes);
            if (*s.cap_bytes == 0) p.fail(cap_key, "must be > 0");
            return s;
        }
        if (row && row->make.param == PrefetchParam::Ms) {
            s.rule = name;
            s.lead_ms = p.with_units(n[name], key + "." + name, parse_time_ms);
            return s;
        }
    }
    std::vector<std::string> forms;
    for (const PrefetchRow& row : prefetch_rules())
        forms.push_back(row.make.param == PrefetchParam::None ? std::string(row.name) : "{" + prefetch_usage(row) + "}");
    const std::string last = forms.back();
    forms.pop_back();
    p.fail(key, fmt::format("expected {} or {}", fmt::join(forms, ", "), last));
}

PolicySpec parse_policy(const YAML::Node& n, const Parser& p) {
    PolicySpec s;
    if (!n) return s;
    if (n["allocator"]) s.allocator = p.choice(n["allocator"], "policy.allocator", allocator_names());
    if (n["semantics"]) s.semantics = p.choice(n["semantics"], "policy.semantics", semantics_names());
    if (n["hybrid"]) s.hybrid = p.scalar<bool>(n["hybrid"], "policy.hybrid", "true or false");
    if (const YAML::Node sw = n["swap"]) {
        if (sw["mode"]) s.swap.mode = p.choice(sw["mode"], "policy.swap.mode", swap_mode_names());
        if (sw["select"])
            s.swap.select = p.choice(sw["select"], "policy.swap.select", swap_selection_names());
        if (sw["prefetch"]) s.swap.prefetch = parse_prefetch(sw["prefetch"], p);
    }
    if (const YAML::Node r = n["recompute"]) {
        if (r["heuristic"])
            s.recompute.heuristic = p.choice(r["heuristic"], "policy.recompute.heuristic", eviction_heuristic_names());
        if (r["planner"])
            s.recompute.planner = p.choice(r["planner"], "policy.recompute.planner", recompute_planner_names());
        if (r["seed"]) s.recompute.params.seed = p.scalar<std::uint64_t>(r["seed"], "policy.recompute.seed", "an integer >= 0");
        if (r["max_overhead"]) {
            s.recompute.max_overhead = p.scalar<double>(r["max_overhead"], "policy.recompute.max_overhead", "a number");
            if (!(*s.recompute.max_overhead > 0)) p.fail("policy.recompute.max_overhead", "must be > 0");
        }
        for (auto [key, field] : {std::pair{"a", &s.recompute.params.a}, {"b", &s.recompute.params.b},
                                  {"c", &s.recompute.params.c}, {"d", &s.recompute.params.d}})
            if (r[key]) *field = p.scalar<double>(r[key], std::string("policy.recompute.") + key, "a number");
    }
    return s;
}

OutputSpec parse_output(const YAML::Node& n, const Parser& p, const std::string& name) {
    OutputSpec s;
    s.dir = "out/" + output_folder_name(name);
    if (!n) return s;
    if (n["dir"]) s.dir = p.text(n["dir"], "output.dir");
    if (n["events"]) s.events = p.scalar<bool>(n["events"], "output.events", "true or false");
    if (n["gantt"]) s.gantt = p.scalar<bool>(n["gantt"], "output.gantt", "true or false");
    if (n["trace"]) s.trace = p.scalar<bool>(n["trace"], "output.trace", "true or false");
    return s;
}

}  // namespace memsim
