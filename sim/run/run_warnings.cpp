#include "sim/run/run_warnings.h"

#include <fmt/format.h>

#include "models/swap/mode/swap_mode.h"
#include "models/swap/prefetch/prefetch_rule.h"

namespace memsim {

namespace {

bool set_on_command_line(const Scenario& s, const std::string& prefix) {
    for (const std::string& o : s.overrides)
        if (o.rfind(prefix, 0) == 0) return true;
    return false;
}

// Disk keys the user wrote for this scenario: inline in it, or with --set. A platform
// file describes a machine, whose disk is there whether or not a run swaps.
bool disk_written_by_user(const Scenario& s) {
    if (set_on_command_line(s, "platform.disk")) return true;
    return s.platform_file.empty() && s.resolved["platform"] && s.resolved["platform"].IsMap() &&
           s.resolved["platform"]["disk"];
}

}  // namespace

std::vector<std::string> scenario_warnings(const Scenario& s) {
    std::vector<std::string> warnings = s.warnings;
    const PolicySpec& p = s.policy;
    const SwapModeRow* mode_row = find_row(swap_modes(), p.swap.mode);
    if (!mode_row) return warnings;  // validate_policy reports it
    const std::unique_ptr<SwapMode> mode = mode_row->make();
    const PrefetchSpec& prefetch = p.swap.prefetch;
    const PrefetchSpec default_prefetch;
    const bool prefetch_set = prefetch.rule != default_prefetch.rule || prefetch.lead_ops != default_prefetch.lead_ops ||
                              prefetch.lead_ms != default_prefetch.lead_ms;
    if (prefetch_set && !mode->uses_prefetch_rule())
        warnings.push_back(fmt::format("policy.swap.prefetch '{}' has no effect: swap mode '{}' does not prefetch (only "
                                       "async swapping issues swap-ins ahead of use)",
                                       prefetch.rule, p.swap.mode));
    if (!mode->moves_tensors() && disk_written_by_user(s))
        warnings.push_back(fmt::format("platform.disk has no effect: swap mode '{}' never uses the disk", p.swap.mode));
    return warnings;
}

std::vector<std::string> run_warnings(const Scenario& s, const Summary& /*summary*/) {
    std::vector<std::string> warnings = scenario_warnings(s);
    // The swap model's warnings about a run's result go here.
    return warnings;
}

}  // namespace memsim
