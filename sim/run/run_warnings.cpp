#include "sim/run/run_warnings.h"

#include <algorithm>

#include <fmt/format.h>

#include "models/swap/mode/swap_mode.h"
#include "models/swap/swap_plan.h"
#include "models/swap/swap_warnings.h"

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

}  // namespace

std::vector<std::string> scenario_warnings(const Scenario& s) {
    std::vector<std::string> warnings = s.warnings;
    const PolicySpec& p = s.policy;
    const SwapModeRow* mode_row = find_row(swap_modes(), p.swap.mode);
    if (!mode_row) return warnings;  // validate_policy reports it
    const SwapModeFlags& mode = mode_row->flags;
    const bool prefetch_set = p.swap.prefetch != SwapSpec{}.prefetch || !p.swap.prefetch_params.empty();
    if (prefetch_set && !mode.uses_prefetch_rule)
        warnings.push_back(fmt::format("policy.swap.prefetch '{}' has no effect: swap mode '{}' does not prefetch (only "
                                       "async swapping issues swap-ins ahead of use)",
                                       p.swap.prefetch, p.swap.mode));
    if (!mode.moves_tensors && disk_written_by_user(s))
        warnings.push_back(fmt::format("platform.disk has no effect: swap mode '{}' never uses the disk", p.swap.mode));
    warnings.insert(warnings.end(), p.ignored_params.begin(), p.ignored_params.end());
    return warnings;
}

std::vector<std::string> run_warnings(const Scenario& s, const Workload& w, const Summary& sm) {
    std::vector<std::string> warnings = scenario_warnings(s);
    const SwapModeRow* mode_row = find_row(swap_modes(), s.policy.swap.mode);
    if (!mode_row || sm.status != "ok") return warnings;  // a stopped run's counters are partial
    SwapWarningInputs in;
    in.swaps = mode_row->flags.moves_tensors;
    in.async = mode_row->flags.uses_prefetch_rule;
    in.disk = s.platform.disk;
    if (in.swaps) {
        const std::vector<std::int64_t> live = live_bytes_during(w);
        in.no_swap_live_peak_bytes = live.empty() ? 0 : static_cast<std::uint64_t>(*std::max_element(live.begin(), live.end()));
    }
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
