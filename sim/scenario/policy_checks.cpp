// validate_policy: the scenario's policy checked as a whole, once, before a run. The
// choices themselves were checked against their tables while parsing; this checks that
// the choices fit together and that every name still names a row (a scenario built in
// code skips the parser).
#include <algorithm>

#include <fmt/format.h>

#include "models/allocators.h"
#include "models/recompute/eviction_heuristic.h"
#include "models/recompute/recompute_planner.h"
#include "models/semantics/semantics.h"
#include "models/swap/mode/swap_mode.h"
#include "models/swap/prefetch/prefetch_rule.h"
#include "models/swap/selection/swap_selection.h"
#include "models/workload/input_error.h"
#include "sim/scenario/scenario.h"
#include "sim/scenario/schema.h"
#include "sim/scenario/set_origin.h"

namespace memsim {

namespace {

template <typename Table>
const auto& row_named(const Table& table, const std::string& name, const Scenario& s, const char* key,
                      const std::vector<std::string>& valid) {
    const auto* row = find_row(table, name);
    if (!row)
        throw InputError(fmt::format("{}: {}: {}", key_origin(s.file, s.overrides, key), key,
                                     unknown_name_message("value", name, valid)));
    return *row;
}

}  // namespace

void validate_policy(const Scenario& s) {
    const auto fail = [&](const std::string& key, const std::string& what) {
        throw InputError(fmt::format("{}: {}: {}", key_origin(s.file, s.overrides, key), key, what));
    };
    const PolicySpec& policy = s.policy;
    const bool budget = s.platform.memory_budget || s.platform.memory_budget_ratio;
    const Semantics semantics = row_named(semantics_table(), policy.semantics, s, "policy.semantics", semantics_names()).make();
    const auto mode = row_named(swap_modes(), policy.swap.mode, s, "policy.swap.mode", swap_mode_names()).make();
    const auto selection =
        row_named(swap_selections(), policy.swap.select, s, "policy.swap.select", swap_selection_names()).make();
    row_named(prefetch_rules(), policy.swap.prefetch.rule, s, "policy.swap.prefetch", prefetch_usages());
    const auto known = [&](const std::string& name, const char* key, const std::vector<std::string>& valid) {
        if (std::find(valid.begin(), valid.end(), name) == valid.end())
            fail(key, fmt::format("unknown value '{}' (valid: {})", name, fmt::join(valid, ", ")));
    };
    known(policy.allocator, "policy.allocator", allocator_names());
    if (!policy.recompute.heuristic.empty())
        known(policy.recompute.heuristic, "policy.recompute.heuristic", eviction_heuristic_names());
    if (!policy.recompute.planner.empty()) known(policy.recompute.planner, "policy.recompute.planner", recompute_planner_names());

    if (!policy.recompute.planner.empty() && !budget)
        fail("policy.recompute.planner", fmt::format("'{}' needs platform.memory.budget", policy.recompute.planner));
    if (mode->moves_tensors() && selection->needs_budget() && !budget)
        fail("policy.swap.select", fmt::format("'{}' needs platform.memory.budget", policy.swap.select));
    if (!policy.recompute.heuristic.empty() && !budget)
        fail("policy.recompute.heuristic", "recomputation needs platform.memory.budget");
    if (policy.hybrid && (!mode->moves_tensors() || policy.recompute.heuristic.empty()))
        fail("policy.hybrid", "needs both policy.swap.mode and policy.recompute.heuristic");
    if (semantics.feature_maps_only && mode->moves_tensors() && policy.swap.select != "feature_maps")
        fail("policy.semantics", "reference semantics exist for the feature_maps selection only");
    // "eager" was the default before "budget" and is what shipped reference runs name.
    if (semantics.read_issue_rule && mode->uses_prefetch_rule() && policy.swap.prefetch.rule != PrefetchSpec{}.rule &&
        policy.swap.prefetch.rule != "eager")
        fail("policy.swap.prefetch", "reference semantics use their own read issue rule; leave prefetch unset");
}

}  // namespace memsim
