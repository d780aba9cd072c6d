#include "sim/app/compare/policy_candidates.h"

#include <algorithm>

#include <fmt/format.h>

#include "models/policy_table.h"
#include "models/recompute/eviction_heuristic.h"
#include "models/recompute/recompute_planner.h"
#include "models/swap/mode/swap_mode.h"
#include "models/swap/prefetch/prefetch_rule.h"
#include "models/workload/input_error.h"

namespace memsim {

namespace {

constexpr const char* kNoPolicy = "none";
constexpr const char* kHybrid = "hybrid";
// The swap selection a compare uses when the scenario names none: only what the budget needs.
constexpr const char* kDefaultSelection = "budget";

// The scenario's policy without its swap, recompute and hybrid choices.
YAML::Node bare_policy(const Scenario& base) {
    YAML::Node policy = base.resolved["policy"] ? YAML::Clone(base.resolved["policy"]) : YAML::Node(YAML::NodeType::Map);
    for (const char* key : {"swap", "recompute", "hybrid"}) policy.remove(key);
    return policy;
}

std::string selection_of(const Scenario& base) {
    const YAML::Node policy = base.resolved["policy"];
    const bool named = policy && policy.IsMap() && policy["swap"] && policy["swap"].IsMap() && policy["swap"]["select"];
    return named ? base.policy.swap.select : std::string(kDefaultSelection);
}

std::string heuristic_of(const Scenario& base) {
    return base.policy.recompute.heuristic.empty() ? std::string(eviction_heuristic_table().front().name)
                                                   : base.policy.recompute.heuristic;
}

}  // namespace

namespace {

// The emitter's Flow applies to the outermost collection only; nodes built in code are
// block style underneath unless told otherwise.
void set_flow(YAML::Node node) {
    if (!node.IsMap() && !node.IsSequence()) return;
    node.SetStyle(YAML::EmitterStyle::Flow);
    for (auto it = node.begin(); it != node.end(); ++it) set_flow(node.IsMap() ? it->second : *it);
}

}  // namespace

std::string flow_yaml(const YAML::Node& node) {
    YAML::Node copy = YAML::Clone(node);
    set_flow(copy);
    YAML::Emitter out;
    out << copy;
    return out.c_str();
}

std::vector<std::string> policy_family_names() {
    std::vector<std::string> names{kNoPolicy};
    for (const SwapModeRow& row : swap_modes())
        if (row.flags.moves_tensors) names.emplace_back(row.name);
    for (const std::string& name : eviction_heuristic_names()) names.push_back(name);
    for (const std::string& name : recompute_planner_names()) names.push_back(name);
    names.emplace_back(kHybrid);
    return names;
}

std::vector<PolicyCandidate> policy_candidates(const Scenario& base, const std::vector<std::string>& families) {
    const std::vector<std::string> all = policy_family_names();
    for (const std::string& f : families)
        if (std::find(all.begin(), all.end(), f) == all.end())
            throw InputError("--policies: " + unknown_name_message("policy family", f, all));
    const auto chosen = [&](const std::string& f) {
        return families.empty() || std::find(families.begin(), families.end(), f) != families.end();
    };
    std::vector<PolicyCandidate> out;
    if (chosen(kNoPolicy)) out.push_back({kNoPolicy, "no policy", bare_policy(base)});
    for (const SwapModeRow& mode : swap_modes()) {
        if (!mode.flags.moves_tensors || !chosen(std::string(mode.name))) continue;
        const auto add = [&](const std::string& prefetch) {
            YAML::Node policy = bare_policy(base);
            policy["swap"]["mode"] = std::string(mode.name);
            policy["swap"]["select"] = selection_of(base);
            std::string label = fmt::format("swap {} ({})", mode.name, selection_of(base));
            if (!prefetch.empty()) {
                policy["swap"]["prefetch"] = prefetch;
                label = fmt::format("swap {} ({}, prefetch {})", mode.name, selection_of(base), prefetch);
            }
            out.push_back({std::string(mode.name), label, policy});
        };
        if (!mode.flags.uses_prefetch_rule) {
            add("");
            continue;
        }
        // The rules that run as named: every parameter has a default (or may stay unset).
        for (const PrefetchRow& rule : prefetch_rules())
            if (std::none_of(rule.params.begin(), rule.params.end(), [](const ParamSpec& p) { return p.required(); }))
                add(std::string(rule.name));
    }
    for (const std::string& name : eviction_heuristic_names()) {
        if (!chosen(name)) continue;
        YAML::Node policy = bare_policy(base);
        policy["recompute"]["heuristic"] = name;
        out.push_back({name, "recompute " + name, policy});
    }
    for (const std::string& name : recompute_planner_names()) {
        if (!chosen(name)) continue;
        YAML::Node policy = bare_policy(base);
        policy["recompute"]["planner"] = name;
        out.push_back({name, "recompute planner " + name, policy});
    }
    if (chosen(kHybrid)) {
        YAML::Node policy = bare_policy(base);
        policy["hybrid"] = true;
        policy["swap"]["mode"] = "async";
        policy["recompute"]["heuristic"] = heuristic_of(base);
        out.push_back({kHybrid, fmt::format("hybrid (async swap or {} drop)", heuristic_of(base)), policy});
    }
    return out;
}

}  // namespace memsim
