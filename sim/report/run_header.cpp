#include "sim/report/run_header.h"

#include <csignal>

#include <fmt/format.h>

#include "models/io/process_end.h"
#include "models/recompute/optimal/optimal_planner.h"
#include "models/swap/mode/swap_mode.h"
#include "sim/report/text_format.h"
#include "sim/scenario/policy_families.h"

namespace memsim {

namespace {

std::string param_text(const ParamSpec& spec, const ParamValue& value) {
    if (spec.kind == ParamKind::Size) return format_bytes_human(std::get<std::uint64_t>(value));
    if (spec.kind == ParamKind::Count) return fmt::format("{}", std::get<std::uint64_t>(value));  // its unit is in the name
    return value_text(spec, value);
}

// A family's choice with the parameters the scenario gave it, from the row (no policy
// or parameter names written here): "lead_ops: 3", "lead_ms: 20 ms" for a row whose one
// parameter is required, else "budget (cap 300 MiB)", "megengine (a 2, d 0.5)"; the
// name alone when nothing was given.
std::string choice_text(std::string_view family_key, const PolicySpec& p) {
    const PolicyFamily& family = policy_family(family_key);
    const std::string& name = chosen_name(family, p);
    const ParamValues& given = given_params(family, p);
    const FamilyRow* row = find_row(family, name);
    if (!row || given.empty()) return name;
    if (row->params.size() == 1 && row->params.front().required())
        return fmt::format("{}: {}", name, param_text(row->params.front(), given.begin()->second));
    std::vector<std::string> parts;
    for (const ParamSpec& spec : row->params)
        if (const auto it = given.find(spec.key); it != given.end()) parts.push_back(fmt::format("{} {}", spec.key, param_text(spec, it->second)));
    return fmt::format("{} ({})", name, fmt::join(parts, ", "));
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

std::string recompute_text(const PolicySpec& p, const Summary& summary) {
    const RecomputeSpec& r = p.recompute;
    std::string text = !r.heuristic.empty() ? "heuristic " + choice_text("policy.recompute.heuristic", p)
                       : !r.planner.empty() ? "planner " + choice_text("policy.recompute.planner", p)
                                            : "none";
    if (r.max_overhead) text += fmt::format(", max overhead {:g}x", *r.max_overhead);
    // The optimal planner says what it proved (docs/optimal.md).
    const auto detail = [&](const char* key) { return summary.details.contains(key) ? summary.details.at(key) : 0.0; };
    if (summary.details.contains("optimal_proven"))
        text += fmt::format(": {} by {}, no plan of its class under {:.3f} ms",
                            optimal::status_text(detail("optimal_proven"), detail("optimal_gap")),
                            optimal::method_name(detail("optimal_method")), detail("optimal_bound_ms"));
    // SIGXCPU is the planner's own hard stop past the time limit (optimal::hard_stop_s).
    if (const int signal = static_cast<int>(detail("optimal_solver_signal")); signal == SIGXCPU)
        text += " (CBC ran past its time limit to its hard stop: the answer is the best plan known)";
    else if (signal != 0)
        text += fmt::format(" (CBC's process was killed by {}: the answer is the best plan known)", signal_words(signal));
    return text;
}

}  // namespace

RunHeader run_header(const Scenario& s, const Workload& w, const Summary& summary) {
    RunHeader h;
    const PolicySpec& p = s.policy;
    const SwapModeRow* mode = find_row(swap_modes(), p.swap.mode);
    const bool swaps = mode && mode->flags.moves_tensors;
    // The title names what differs between variants of a scenario (sweep points, --set runs).
    const std::string allocator = choice_text("policy.allocator", p);
    // The prefetch rule only for a swap mode that prefetches: a sync run has none to show.
    const std::string prefetch = mode && mode->flags.uses_prefetch_rule ? choice_text("policy.swap.prefetch", p) : "";
    std::vector<std::string> variant = {allocator};
    if (s.platform.memory_budget_ratio) variant.push_back(fmt::format("budget {:g}%", *s.platform.memory_budget_ratio * 100));
    else if (s.platform.memory_budget) variant.push_back("budget " + format_bytes_human(*s.platform.memory_budget));
    if (swaps)
        variant.push_back(fmt::format("swap {} / {}{}", choice_text("policy.swap.mode", p), choice_text("policy.swap.select", p),
                                      prefetch.empty() ? "" : " / " + prefetch));
    if (!p.recompute.heuristic.empty()) variant.push_back(choice_text("policy.recompute.heuristic", p));
    if (!p.recompute.planner.empty()) variant.push_back(choice_text("policy.recompute.planner", p));
    if (p.hybrid) variant.push_back("hybrid");
    if (p.semantics != PolicySpec{}.semantics) variant.push_back(choice_text("policy.semantics", p) + " semantics");
    h.title = s.name;
    for (std::size_t i = 0; i < variant.size(); ++i) h.title += (i == 0 ? ": " : ", ") + variant[i];

    // A DTR log has no batch (0): its name alone.
    const std::string batch = w.batch > 0 ? fmt::format(", batch {}", w.batch) : "";
    h.settings.emplace_back("workload", fmt::format("{}{}, {} ops ({} forward)", w.name, batch, w.ops.size(), w.forward_end));
    h.settings.emplace_back("allocator", allocator);
    h.settings.emplace_back("budget", budget_text(s, summary));
    h.settings.emplace_back("swap", swaps ? fmt::format("{}, selection {}{}", choice_text("policy.swap.mode", p),
                                                        choice_text("policy.swap.select", p), prefetch.empty() ? "" : ", prefetch " + prefetch)
                                          : "none");
    h.settings.emplace_back("recompute", recompute_text(p, summary));
    if (p.hybrid) h.settings.emplace_back("hybrid", "swap or drop, whichever is predicted cheaper");
    h.settings.emplace_back("semantics", choice_text("policy.semantics", p));
    const DiskSpec& d = s.platform.disk;
    std::string disk = fmt::format("write {}, read {}", rate_text(d.write_bytes_per_s), rate_text(d.read_bytes_per_s));
    if (d.write_latency_ms > 0 || d.read_latency_ms > 0)
        disk += fmt::format(", latency {:g} / {:g} ms", d.write_latency_ms, d.read_latency_ms);
    h.settings.emplace_back("disk", disk);
    if (s.platform.gpu_speed_scale != 1.0) h.settings.emplace_back("GPU speed", fmt::format("{:g}x", s.platform.gpu_speed_scale));
    // workload.costs: device (docs/gpu_model.md): the times are the roofline's, not recorded.
    if (s.workload.costs == "device" && s.platform.gpu_model) h.settings.emplace_back("operator times", w.cost_note);
    if (s.platform.name != "default") h.settings.emplace_back("platform", s.platform.name);
    // Where an override resolved a conflict (a kept budget, a replaced source): said under
    // the setting (sim/scenario/override_rules.h).
    for (auto it = h.settings.begin(); it != h.settings.end(); ++it)
        if (const auto note = s.notes.find(it->first); note != s.notes.end()) it = h.settings.emplace(it + 1, "note", note->second);
    return h;
}

}  // namespace memsim
