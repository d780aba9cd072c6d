// validate_policy: the scenario's policy checked as a whole, once, before a run. The
// choices themselves were checked against their tables while parsing; this checks that
// every name still names a row and its parameters fit it (a scenario built in code skips
// the parser), and that the choices fit together, from the rows' flags.
#include <fmt/format.h>

#include "models/allocators.h"
#include "models/semantics/semantics.h"
#include "models/swap/mode/swap_mode.h"
#include "models/swap/placement/placement_rule.h"
#include "models/swap/selection/swap_selection.h"
#include "models/workload/dtr_log_lines.h"  // shorten_for_message
#include "models/workload/input_error.h"
#include "sim/scenario/output_table.h"
#include "sim/scenario/policy_families.h"
#include "sim/scenario/scenario.h"
#include "sim/scenario/set_origin.h"

namespace memsim {

void validate_policy(const Scenario& s) {
    const auto fail = [&](const std::string& key, const std::string& what) {
        throw InputError(fmt::format("{}: {}: {}", key_origin(s.file, s.overrides, key), key, what));
    };
    const PolicySpec& policy = s.policy;
    for (const PolicyFamily& family : policy_families()) {
        const std::string& name = chosen_name(family, policy);
        const std::string key(family.key);
        if (name.empty() && family.optional) continue;  // none chosen
        const FamilyRow* row = find_row(family, name);
        if (!row) fail(key, unknown_name_message("value", name, row_usages(family)));
        try {
            (void)PolicyParams(row->params, given_params(family, policy));
        } catch (const std::invalid_argument& e) {
            fail(key, fmt::format("'{}': {}", name, e.what()));
        }
    }
    try {  // an allocator checks what its parameters say (torch_caching's options text)
        (void)make_allocator(policy.allocator, policy.allocator_params);
    } catch (const std::invalid_argument& e) {
        const AllocatorRow* row = find_row(allocator_table(), policy.allocator);
        const auto conf = row && !row->flags.config_param.empty() ? policy.allocator_params.find(row->flags.config_param)
                                                                  : policy.allocator_params.end();
        if (conf == policy.allocator_params.end()) fail("policy.allocator", e.what());
        fail("policy." + conf->first, fmt::format("'{}': {}", shorten_for_message(std::get<std::string>(conf->second)), e.what()));
    }
    try {  // a selection checks what its parameters say (the roles a swap by role names)
        (void)make_swap_selection(*find_row(swap_selections(), policy.swap.select), policy.swap.select_params);
    } catch (const std::invalid_argument& e) {
        fail("policy.swap.select", fmt::format("'{}': {}", policy.swap.select, e.what()));
    }
    for (const OutputRow& row : output_table())
        if (s.output.wants(row.name) && row.needs == OutputNeeds::segment_allocator &&
            !find_row(allocator_table(), policy.allocator)->flags.models_segments)
            fail(output_key(row), fmt::format("{} shows torch_caching's segments and blocks; policy.allocator is '{}' (set it to {})",
                                              row.file, policy.allocator, fmt::join(segment_allocator_names(), " or ")));
    const bool budget = s.platform.memory_budget || s.platform.memory_budget_ratio;
    const Semantics semantics = find_row(semantics_table(), policy.semantics)->make();
    const SwapModeFlags& mode = find_row(swap_modes(), policy.swap.mode)->flags;
    const SwapSelectionFlags& selection = find_row(swap_selections(), policy.swap.select)->flags;

    if (!policy.recompute.planner.empty() && !budget)
        fail("policy.recompute.planner", fmt::format("'{}' needs platform.memory.budget", policy.recompute.planner));
    if (mode.moves_tensors && selection.needs_budget && !budget)
        fail("policy.swap.select", fmt::format("'{}' needs platform.memory.budget", policy.swap.select));
    if (const PlacementRow* placement = find_row(placement_rules(), policy.swap.placement);
        placement && placement->flags.uses_host && !s.platform.has_host_tier())
        fail("policy.swap.placement", fmt::format("'{}' puts tensors in host RAM: it needs platform.host.link (docs/tiers.md)",
                                                  policy.swap.placement));
    if (!policy.recompute.heuristic.empty() && !budget)
        fail("policy.recompute.heuristic", "recomputation needs platform.memory.budget");
    if (policy.hybrid && (!mode.moves_tensors || policy.recompute.heuristic.empty()))
        fail("policy.hybrid", "needs both policy.swap.mode and policy.recompute.heuristic");
    if (semantics.feature_maps_only && mode.moves_tensors && policy.swap.select != "feature_maps")
        fail("policy.semantics", "reference semantics exist for the feature_maps selection only");
    // "eager" was the default before "budget" and is what shipped reference runs name.
    if (semantics.read_issue_rule && mode.uses_prefetch_rule &&
        (policy.swap.prefetch != SwapSpec{}.prefetch || !policy.swap.prefetch_params.empty()) && policy.swap.prefetch != "eager")
        fail("policy.swap.prefetch", "reference semantics use their own read issue rule; leave prefetch unset");
}

}  // namespace memsim
