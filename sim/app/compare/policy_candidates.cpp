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

// The scenario's policy less the choices a candidate varies (swap mode, selection and
// prefetch; recompute heuristic and planner; hybrid) and their parameters: everything
// else stays as the scenario has it (allocator, semantics, swap placement and path,
// recompute.max_overhead). A choice the candidate makes as the scenario does keeps the
// scenario's parameters too (the optimal planner's time_limit), so a candidate differs
// from the scenario only in the family it stands for.
struct Kept {
    std::string select, prefetch, heuristic, planner;  // the scenario's row, when the candidate takes it
};

YAML::Node bare_policy(const Scenario& base, const Kept& kept = {}) {
    YAML::Node policy = base.resolved["policy"] ? YAML::Clone(base.resolved["policy"]) : YAML::Node(YAML::NodeType::Map);
    if (!policy.IsMap()) return YAML::Node(YAML::NodeType::Map);
    policy.remove("hybrid");
    const PolicySpec& spec = base.policy;
    // A family's key, and its parameters written beside it, unless the candidate keeps its row.
    const auto drop = [](YAML::Node map, const char* key, const std::string& name, const std::string& keep, const ParamValues& params,
                         std::initializer_list<const ParamValues*> others) {
        if (!map || !map.IsMap()) return;
        if (!name.empty() && name == keep) return;
        map.remove(key);
        for (const auto& [param, value] : params)
            if (std::none_of(others.begin(), others.end(), [&p = param](const ParamValues* o) { return o && o->count(p) > 0; }))
                map.remove(param);
    };
    YAML::Node swap = policy["swap"];
    if (swap && swap.IsMap()) {
        drop(swap, "mode", spec.swap.mode, "", spec.swap.mode_params, {&spec.swap.placement_params, &spec.swap.path_params});
        drop(swap, "select", spec.swap.select, kept.select, spec.swap.select_params,
             {&spec.swap.placement_params, &spec.swap.path_params});
        drop(swap, "prefetch", spec.swap.prefetch, kept.prefetch, spec.swap.prefetch_params,
             {&spec.swap.placement_params, &spec.swap.path_params});
        if (swap.size() == 0) policy.remove("swap");
    }
    YAML::Node recompute = policy["recompute"];
    if (recompute && recompute.IsMap()) {
        drop(recompute, "heuristic", spec.recompute.heuristic, kept.heuristic, spec.recompute.heuristic_params,
             {kept.planner.empty() ? nullptr : &spec.recompute.planner_params});
        drop(recompute, "planner", spec.recompute.planner, kept.planner, spec.recompute.planner_params,
             {kept.heuristic.empty() ? nullptr : &spec.recompute.heuristic_params});
        if (recompute.size() == 0) policy.remove("recompute");
    }
    return policy;
}

// A choice the scenario made as the candidate does stays as written, with its parameters.
void set_if_absent(YAML::Node map, const char* key, const std::string& value) {
    if (!map[key]) map[key] = value;
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
            const Kept kept{base.policy.swap.select == selection_of(base) ? selection_of(base) : "",
                            base.policy.swap.prefetch == prefetch ? prefetch : "", "", ""};
            YAML::Node policy = bare_policy(base, kept);
            policy["swap"]["mode"] = std::string(mode.name);
            set_if_absent(policy["swap"], "select", selection_of(base));
            std::string label = fmt::format("swap {} ({})", mode.name, selection_of(base));
            if (!prefetch.empty()) {
                set_if_absent(policy["swap"], "prefetch", prefetch);
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
        YAML::Node policy = bare_policy(base, {"", "", base.policy.recompute.heuristic == name ? name : "", ""});
        set_if_absent(policy["recompute"], "heuristic", name);
        out.push_back({name, "recompute " + name, policy});
    }
    for (const std::string& name : recompute_planner_names()) {
        if (!chosen(name)) continue;
        YAML::Node policy = bare_policy(base, {"", "", "", base.policy.recompute.planner == name ? name : ""});
        set_if_absent(policy["recompute"], "planner", name);
        out.push_back({name, "recompute planner " + name, policy});
    }
    if (chosen(kHybrid)) {
        YAML::Node policy = bare_policy(base, {"", "", base.policy.recompute.heuristic == heuristic_of(base) ? heuristic_of(base) : "", ""});
        policy["hybrid"] = true;
        policy["swap"]["mode"] = "async";
        set_if_absent(policy["recompute"], "heuristic", heuristic_of(base));
        out.push_back({kHybrid, fmt::format("hybrid (async swap or {} drop)", heuristic_of(base)), policy});
    }
    return out;
}

}  // namespace memsim
