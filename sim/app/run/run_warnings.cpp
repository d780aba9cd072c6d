#include "sim/app/run/run_warnings.h"

#include <algorithm>

#include <fmt/format.h>

#include "models/allocators.h"
#include "models/swap/mode/swap_mode.h"
#include "models/swap/selection/swap_selection.h"
#include "models/swap/swap_plan.h"
#include "models/swap/swap_warnings.h"
#include "sim/app/run/memory_floor.h"

namespace memsim {

namespace {

bool set_on_command_line(const Scenario& s, const std::string& prefix) {
    for (const std::string& o : s.overrides)
        if (o.rfind(prefix, 0) == 0) return true;
    return false;
}

// A sweep over policies: its other points may swap, so the scenario's disk is not inert.
bool sweep_varies_policy(const Scenario& s) {
    const YAML::Node sweep = s.resolved["sweep"];
    if (!sweep || !sweep.IsMap()) return false;
    for (const auto& entry : sweep)
        if (entry.first.as<std::string>().rfind("policy", 0) == 0) return true;
    return false;
}

// Disk keys the user wrote for this scenario: inline in it, or with --set. A platform
// file describes a machine, whose disk is there whether or not a run swaps.
bool disk_written_by_user(const Scenario& s) {
    if (set_on_command_line(s, "platform.disk")) return true;
    if (sweep_varies_policy(s)) return false;
    return s.platform_file.empty() && s.resolved["platform"] && s.resolved["platform"].IsMap() &&
           s.resolved["platform"]["disk"];
}

// Whether `key` (a --set's or a sweep's) sets `path`: the key itself, a key under it, or a
// map above it (which replaces everything under it).
bool key_sets(const std::string& key, const std::string& path) {
    return key == path || key.rfind(path + ".", 0) == 0 || path.rfind(key + ".", 0) == 0;
}

bool prefetch_set_on_command_line(const Scenario& s) {
    for (const std::string& o : s.overrides)
        if (key_sets(o.substr(0, o.find('=')), "policy.swap.prefetch")) return true;
    return false;
}

// A sweep over the swap mode with a mode that prefetches, the prefetch itself left to the
// scenario: the prefetch it writes serves those points, so it is not inert in the file.
bool sweep_prefetches_with_scenario_prefetch(const Scenario& s) {
    const YAML::Node sweep = s.resolved["sweep"];
    if (!sweep || !sweep.IsMap()) return false;
    bool prefetching_mode = false;
    for (const auto& entry : sweep) {
        const std::string key = entry.first.as<std::string>();
        if (key_sets(key, "policy.swap.prefetch")) return false;  // every point replaces the scenario's
        if (key != "policy.swap.mode" || !entry.second.IsSequence()) continue;
        for (const auto& value : entry.second) {
            // A mode is named as `async`, `async:...` or {async: ...}.
            std::string name;
            if (value.IsScalar()) name = value.Scalar().substr(0, value.Scalar().find(':'));
            if (value.IsMap() && value.size() == 1) name = value.begin()->first.as<std::string>();
            const SwapModeRow* row = find_row(swap_modes(), name);
            if (row && row->flags.uses_prefetch_rule) prefetching_mode = true;
        }
    }
    return prefetching_mode;
}

// Prefetch settings the user wrote for this run: with --set, or in a scenario whose sweep
// does not run them at a mode that prefetches (`run swap_modes.yaml --set
// policy.swap.mode=sync` runs one point of a sweep whose async point uses the prefetch).
bool prefetch_written_for_this_run(const Scenario& s) {
    return prefetch_set_on_command_line(s) || !sweep_prefetches_with_scenario_prefetch(s);
}

}  // namespace

std::vector<std::string> scenario_warnings(const Scenario& s) {
    std::vector<std::string> warnings = s.warnings;
    const PolicySpec& p = s.policy;
    const SwapModeRow* mode_row = find_row(swap_modes(), p.swap.mode);
    if (!mode_row) return warnings;  // validate_policy reports it
    const SwapModeFlags& mode = mode_row->flags;
    const bool prefetch_set = p.swap.prefetch != SwapSpec{}.prefetch || !p.swap.prefetch_params.empty();
    if (prefetch_set && !mode.uses_prefetch_rule && prefetch_written_for_this_run(s))
        warnings.push_back(fmt::format("policy.swap.prefetch '{}' has no effect: swap mode '{}' does not prefetch (only "
                                       "async swapping issues swap-ins ahead of use)",
                                       p.swap.prefetch, p.swap.mode));
    if (!mode.moves_tensors && disk_written_by_user(s))
        warnings.push_back(fmt::format("platform.disk has no effect: swap mode '{}' never uses the disk", p.swap.mode));
    // Every planner counts live bytes (docs/optimal.md): under another allocator its plan
    // may not fit, and a stop then says nothing about what the allocator could have fitted.
    if (!p.recompute.planner.empty() && !footprint_is_live_bytes(p.allocator))
        warnings.push_back(fmt::format("policy.recompute.planner '{}' plans in live bytes (as allocator os): it ignores "
                                       "allocator '{}' (its rounding and cache), so its plan may not fit the budget under it",
                                       p.recompute.planner, p.allocator));
    warnings.insert(warnings.end(), p.ignored_params.begin(), p.ignored_params.end());
    return warnings;
}

namespace {

// The roles the scenario's swap selection moves, constants included (none when it swaps
// nothing).
std::vector<TensorRole> moved_roles(const Scenario& s) {
    const SwapModeRow* mode = find_row(swap_modes(), s.policy.swap.mode);
    const SwapSelectionRow* selection = find_row(swap_selections(), s.policy.swap.select);
    if (!mode || !mode->flags.moves_tensors || !selection) return {};
    return make_swap_selection(*selection, s.policy.swap.select_params)->moved_roles();
}

std::uint64_t no_policy_live_peak(const Workload& w) {
    const std::vector<std::int64_t> live = live_bytes_during(w);
    return live.empty() ? 0 : static_cast<std::uint64_t>(*std::max_element(live.begin(), live.end()));
}

}  // namespace

std::vector<std::string> run_warnings(const Scenario& s, const Workload& w, const Summary& sm) {
    std::vector<std::string> warnings = scenario_warnings(s);
    if (sm.status == "oom")  // what no policy can go below (sim/app/run/memory_floor.h)
        if (auto note = memory_floor_note(w, no_policy_live_peak(w), sm.budget_bytes, s.policy.allocator, moved_roles(s)))
            warnings.push_back(std::move(*note));
    const SwapModeRow* mode_row = find_row(swap_modes(), s.policy.swap.mode);
    if (!mode_row || sm.status != "ok") return warnings;  // a stopped run's counters are partial
    SwapWarningInputs in;
    in.swaps = mode_row->flags.moves_tensors;
    in.async = mode_row->flags.uses_prefetch_rule;
    in.disk = s.platform.disk;
    // Placement names from models/swap/placement/placement_rules.cpp.
    if (s.policy.swap.placement == "host") in.written = "they reached host RAM";
    else if (s.policy.swap.placement != "disk") in.written = "they reached host RAM or the disk";
    if (in.swaps) in.no_swap_live_peak_bytes = no_policy_live_peak(w);
    in.live_peak_bytes = sm.live_peak_bytes;
    in.swapped_tensors = sm.swap_selected_tensors;
    const auto selected = sm.details.find("swap_selected_bytes");
    in.selected_bytes = selected == sm.details.end() ? 0 : static_cast<std::uint64_t>(selected->second);
    in.cancelled_writes = sm.swap_writes_cancelled;
    in.bytes_written = sm.bytes_written;
    in.evictions = sm.evictions;
    in.time_ms = sm.time_ms;
    in.compute_ms = sm.compute_ms;
    for (std::string& warning : swap_warnings(in)) warnings.push_back(std::move(warning));
    return warnings;
}

}  // namespace memsim
