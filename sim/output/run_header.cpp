#include "sim/output/run_header.h"

#include <fmt/format.h>

#include "models/swap/mode/swap_mode.h"
#include "models/swap/prefetch/prefetch_rule.h"
#include "sim/output/text_format.h"

namespace memsim {

namespace {

// The rule with its parameter, from the rule's own row (no rule names written here).
std::string prefetch_text(const PrefetchSpec& p) {
    const PrefetchRow* row = find_row(prefetch_rules(), p.rule);
    if (!row) return p.rule;
    switch (row->make.param) {
        case PrefetchParam::None: return p.rule;
        case PrefetchParam::Ops: return fmt::format("{}: {}", p.rule, p.lead_ops);
        case PrefetchParam::Ms: return fmt::format("{}: {:g} ms", p.rule, p.lead_ms);
    }
    return p.rule;
}

std::string rate_text(double bytes_per_s) { return fmt::format("{:.1f} MB/s", bytes_per_s / 1e6); }

// "60% of 557.70 MiB = 334.62 MiB (live-bytes peak)": the ratio, what it is a fraction of, the bytes.
std::string budget_text(const Scenario& s, const Summary& summary) {
    const std::optional<std::uint64_t> budget = summary.budget_bytes ? summary.budget_bytes : s.platform.memory_budget;
    if (!budget) return "none";
    if (summary.budget_ratio && summary.budget_base_bytes)
        return fmt::format("{:g}% of {} = {} (the live-bytes peak with no policy)", *summary.budget_ratio * 100,
                           format_bytes_human(*summary.budget_base_bytes), format_bytes_human(*budget));
    return format_bytes_human(*budget);
}

std::string recompute_text(const RecomputeSpec& r) {
    std::string text = !r.heuristic.empty() ? "heuristic " + r.heuristic : !r.planner.empty() ? "planner " + r.planner : "none";
    if (r.max_overhead) text += fmt::format(", max overhead {:g}x", *r.max_overhead);
    return text;
}

// The prefetch rule and its parameter, for a swap mode that prefetches; "" for one that does not.
std::string prefetch_if_used(const SwapSpec& swap) {
    const SwapModeRow* mode = find_row(swap_modes(), swap.mode);
    return mode && mode->make()->uses_prefetch_rule() ? prefetch_text(swap.prefetch) : "";
}

}  // namespace

RunHeader run_header(const Scenario& s, const Workload& w, const Summary& summary) {
    RunHeader h;
    const PolicySpec& p = s.policy;
    const bool swaps = p.swap.mode != "none";
    const std::string prefetch = prefetch_if_used(p.swap);
    // The title names what differs between variants of a scenario (sweep points, --set runs).
    std::vector<std::string> variant = {p.allocator};
    if (s.platform.memory_budget_ratio) variant.push_back(fmt::format("budget {:g}%", *s.platform.memory_budget_ratio * 100));
    else if (s.platform.memory_budget) variant.push_back("budget " + format_bytes_human(*s.platform.memory_budget));
    if (swaps)
        variant.push_back(fmt::format("swap {} / {}{}", p.swap.mode, p.swap.select, prefetch.empty() ? "" : " / " + prefetch));
    if (!p.recompute.heuristic.empty()) variant.push_back(p.recompute.heuristic);
    if (!p.recompute.planner.empty()) variant.push_back(p.recompute.planner);
    if (p.hybrid) variant.push_back("hybrid");
    if (p.semantics != "simulated") variant.push_back(p.semantics + " semantics");
    h.title = s.name;
    for (std::size_t i = 0; i < variant.size(); ++i) h.title += (i == 0 ? ": " : ", ") + variant[i];

    // A DTR log has no batch (0): its name alone.
    const std::string batch = w.batch > 0 ? fmt::format(", batch {}", w.batch) : "";
    h.settings.emplace_back("workload", fmt::format("{}{}, {} ops ({} forward)", w.name, batch, w.ops.size(), w.forward_end));
    h.settings.emplace_back("allocator", p.allocator);
    h.settings.emplace_back("budget", budget_text(s, summary));
    h.settings.emplace_back("swap", swaps ? fmt::format("{}, selection {}{}", p.swap.mode, p.swap.select,
                                                        prefetch.empty() ? "" : ", prefetch " + prefetch)
                                          : "none");
    h.settings.emplace_back("recompute", recompute_text(p.recompute));
    if (p.hybrid) h.settings.emplace_back("hybrid", "swap or drop, whichever is predicted cheaper");
    h.settings.emplace_back("semantics", p.semantics);
    const DiskSpec& d = s.platform.disk;
    std::string disk = fmt::format("write {}, read {}", rate_text(d.write_bytes_per_s), rate_text(d.read_bytes_per_s));
    if (d.write_latency_ms > 0 || d.read_latency_ms > 0)
        disk += fmt::format(", latency {:g} / {:g} ms", d.write_latency_ms, d.read_latency_ms);
    h.settings.emplace_back("disk", disk);
    if (s.platform.gpu_speed_scale != 1.0) h.settings.emplace_back("GPU speed", fmt::format("{:g}x", s.platform.gpu_speed_scale));
    if (s.platform.name != "default") h.settings.emplace_back("platform", s.platform.name);
    // Where an override resolved a conflict (a kept budget, a replaced source): said under
    // the setting (sim/scenario/override_rules.h).
    for (auto it = h.settings.begin(); it != h.settings.end(); ++it)
        if (const auto note = s.notes.find(it->first); note != s.notes.end()) it = h.settings.emplace(it + 1, "note", note->second);
    return h;
}

}  // namespace memsim
