#include "sim/scenario/policy_choice.h"

#include <cmath>
#include <set>
#include <sstream>

#include "models/policy_table.h"
#include "sim/scenario/units.h"

namespace memsim {

namespace {

// The node at a dotted path below `root` (undefined when a part is missing).
YAML::Node node_at(const YAML::Node& root, std::string_view dotted) {
    // yaml-cpp nodes are handles: walk down with fresh const handles, never assigning one.
    std::vector<YAML::Node> chain{root};
    std::stringstream parts{std::string(dotted)};
    for (std::string part; std::getline(parts, part, '.');) {
        const YAML::Node& up = chain.back();
        if (!up.IsMap()) return YAML::Node(YAML::NodeType::Undefined);
        const YAML::Node next = up[part];
        if (!next) return YAML::Node(YAML::NodeType::Undefined);
        chain.push_back(next);
    }
    return chain.back();
}

// "swap.prefetch" for "policy.swap.prefetch": where a family sits in the policy section.
std::string_view below_policy(std::string_view key) {
    constexpr std::string_view prefix = "policy";
    key.remove_prefix(prefix.size());
    if (!key.empty()) key.remove_prefix(1);  // the '.'
    return key;
}

const ParamSpec* find_param(std::span<const ParamSpec> params, std::string_view key) {
    for (const ParamSpec& spec : params)
        if (spec.key == key) return &spec;
    return nullptr;
}

bool takes_params(const FamilyRow& row) { return !row.params.empty(); }

std::vector<std::string> param_keys(std::span<const ParamSpec> params) {
    std::vector<std::string> keys;
    for (const ParamSpec& spec : params) keys.emplace_back(spec.key);
    return keys;
}

// A number as the range messages print it: whole op counts as integers, the rest as {:g}.
std::string number_text(const ParamSpec& spec, double value) {
    return spec.kind == ParamKind::Count ? fmt::format("{:.0f}", value) : fmt::format("{:g}", value);
}

[[noreturn]] void fail_range(const ParamSpec& spec, const std::string& written, double value, const std::string& key,
                             const Parser& p) {
    if (!std::isfinite(value)) p.fail(key, fmt::format("{} is not a finite number", value));
    if (spec.low_open ? !(value > spec.low) : !(value >= spec.low))
        p.fail(key, fmt::format("must be {} {}", spec.low_open ? ">" : ">=", number_text(spec, spec.low)));
    const std::string_view unit = unit_of(spec);
    const std::string suffix = unit.empty() ? "" : fmt::format(" {}", unit);
    const std::string converted = number_text(spec, value);
    p.fail(key, fmt::format("'{}'{} is out of range [{}, {}]{}", written, converted == written ? "" : " = " + converted + suffix,
                            number_text(spec, spec.low), number_text(spec, spec.high), suffix));
}

// A whole number >= 0; a negative one is reported against the lower bound.
std::uint64_t parse_count(const YAML::Node& node, const ParamSpec& spec, const std::string& key, const Parser& p) {
    std::uint64_t whole = 0;
    if (YAML::convert<std::uint64_t>::decode(node, whole)) return whole;
    long long negative = 0;
    if (YAML::convert<long long>::decode(node, negative)) {
        if (negative == 0) return 0;  // "-0"
        fail_range(spec, node.Scalar(), static_cast<double>(negative), key, p);
    }
    p.fail(key, fmt::format("'{}' is not an integer", node.Scalar()));
}

// What a row's value node says: one value for its only parameter, or a map of them.
ParamValues parse_row_params(const YAML::Node& value, const FamilyRow& row, const std::string& key, const Parser& p) {
    ParamValues params;
    if (value.IsMap()) {
        for (const auto& kv : value) {
            const std::string param = kv.first.as<std::string>();
            const ParamSpec* spec = find_param(row.params, param);
            if (!spec) p.fail(key + "." + param, fmt::format("unknown key '{}'{}", param, Parser::suggestion(param, param_keys(row.params))));
            params[param] = parse_param_value(kv.second, *spec, key + "." + param, p);
        }
    } else if (value.IsSequence()) {
        p.fail(key, "expected a value or a map of parameters, not a list");
    } else if (!value.IsNull()) {
        if (row.params.size() != 1)
            p.fail(key, fmt::format("'{}' takes several parameters ({}): write {{{}: {{KEY: VALUE}}}}", row.name,
                                    fmt::join(param_keys(row.params), ", "), row.name));
        params[std::string(row.params.front().key)] = parse_param_value(value, row.params.front(), key, p);
    }
    return params;
}

// Every required parameter of the row is given; `key`: where the choice is written.
void check_required(const FamilyRow& row, const ParamValues& params, const std::string& key, const Parser& p) {
    for (const ParamSpec& spec : row.params) {
        if (!spec.required() || params.count(spec.key)) continue;
        const std::string_view value = placeholder(spec.kind);
        if (row.params.size() == 1)
            p.fail(key, fmt::format("'{}' needs its {} ({}): write {}:{} or {{{}: {}}}", row.name, spec.key, kind_and_range(spec),
                                    row.name, value, row.name, value));
        p.fail(key, fmt::format("'{}' needs its {} ({}): write {{{}: {{{}: {}}}}}", row.name, spec.key, kind_and_range(spec),
                                row.name, spec.key, value));
    }
}

// "unknown value 'x' (did you mean 'y'?)", the suggestion taken from the whole text or,
// for NAME:VALUE, from the name.
std::string unknown_value(const PolicyFamily& family, const std::string& text) {
    const std::vector<std::string> usages = row_usages(family);
    std::string best = closest_name(text, usages);
    if (const auto colon = text.find(':'); best.empty() && colon != std::string::npos) {
        const std::string near = closest_name(text.substr(0, colon), row_names(family));
        if (!near.empty()) best = usage_of(near, find_row(family, near)->params);
    }
    return best.empty() ? fmt::format("unknown value '{}' (valid: {})", text, fmt::join(usages, ", "))
                        : fmt::format("unknown value '{}' (did you mean '{}'?)", text, best);
}

struct Choice {
    std::string name;
    ParamValues params;
};

Choice parse_choice(const YAML::Node& node, const PolicyFamily& family, const Parser& p) {
    const std::string key(family.key);
    const bool any_params = std::any_of(family.rows.begin(), family.rows.end(), takes_params);
    if (node.IsScalar()) {
        const std::string text = p.text(node, key);
        if (const FamilyRow* row = find_row(family, text)) {
            check_required(*row, {}, key, p);
            return {text, {}};
        }
        // NAME:VALUE (a name may hold ':' itself: planner:naive)
        for (auto colon = text.find(':'); colon != std::string::npos; colon = text.find(':', colon + 1)) {
            const FamilyRow* row = find_row(family, text.substr(0, colon));
            if (!row || !takes_params(*row)) continue;
            const std::string at = key + "." + std::string(row->name);
            Choice choice{std::string(row->name), parse_row_params(YAML::Node(text.substr(colon + 1)), *row, at, p)};
            check_required(*row, choice.params, at, p);
            return choice;
        }
        p.fail(key, unknown_value(family, text));
    }
    if (!any_params) p.fail(key, "expected a single value, not a list or a map");
    if (node.IsMap() && node.size() == 1) {
        const std::string name = node.begin()->first.as<std::string>();
        const std::string at = key + "." + name;
        const FamilyRow* row = find_row(family, name);
        if (!row) {
            std::vector<std::string> with_params;
            for (const FamilyRow& r : family.rows)
                if (takes_params(r)) with_params.emplace_back(r.name);
            const std::string near = closest_name(name, row_names(family));
            p.fail(at, fmt::format("unknown key '{}'{}", name,
                                   near.empty() ? fmt::format(" (valid: {})", fmt::join(with_params, ", "))
                                                : fmt::format(" (did you mean '{}'?)", near)));
        }
        if (!takes_params(*row)) p.fail(at, fmt::format("'{}' takes no parameter: write {}", name, name));
        Choice choice{name, parse_row_params(node.begin()->second, *row, at, p)};
        check_required(*row, choice.params, at, p);
        return choice;
    }
    p.fail(key, expected_forms(family));
}

// Parameters written beside the family's key: validated whichever row declares them, and
// given to the chosen row when it declares them.
void parse_flat_params(const YAML::Node& policy, const PolicyFamily& family, const Parser& p, PolicySpec& spec) {
    const std::string parent(parent_key(family));
    const YAML::Node beside = node_at(policy, below_policy(parent));
    if (!beside || !beside.IsMap()) return;
    const FamilyRow* chosen = find_row(family, chosen_name(family, spec));
    std::vector<const ParamSpec*> specs;  // the chosen row's first: its kinds and ranges apply
    if (chosen)
        for (const ParamSpec& s : chosen->params) specs.push_back(&s);
    for (const FamilyRow& row : family.rows)
        for (const ParamSpec& s : row.params) specs.push_back(&s);
    std::set<std::string_view> read;
    for (const ParamSpec* s : specs) {
        if (!beside[std::string(s->key)] || !read.insert(s->key).second) continue;
        const std::string key = parent + "." + std::string(s->key);
        const ParamValue value = parse_param_value(beside[std::string(s->key)], *s, key, p);
        if (!chosen || !find_param(chosen->params, s->key)) {
            spec.ignored_params.push_back(fmt::format("{} has no effect: {} '{}' does not take it", key, family.key,
                                                      chosen ? std::string(chosen->name) : chosen_name(family, spec)));
            continue;
        }
        ParamValues& given = family.params(spec);
        if (given.count(s->key))
            p.fail(key, fmt::format("given twice: here and with {} '{}'", family.key, chosen->name));
        given[std::string(s->key)] = value;
    }
}

}  // namespace

ParamValue parse_param_value(const YAML::Node& node, const ParamSpec& spec, const std::string& key, const Parser& p) {
    if (!node.IsScalar()) p.fail(key, "expected a single value, not a list or a map");
    ParamValue value;
    switch (spec.kind) {
        case ParamKind::Count: value = parse_count(node, spec, key, p); break;
        case ParamKind::Number: value = p.scalar<double>(node, key, "a number"); break;
        case ParamKind::Size: value = p.with_units(node, key, parse_bytes); break;
        case ParamKind::Duration: value = p.with_units(node, key, parse_time_ms); break;
        case ParamKind::Flag: value = p.scalar<bool>(node, key, "true or false"); break;
        case ParamKind::Text: value = p.text(node, key); break;
    }
    if (in_range(spec, value)) return value;
    const double number = std::holds_alternative<double>(value) ? std::get<double>(value)
                                                                : static_cast<double>(std::get<std::uint64_t>(value));
    fail_range(spec, node.Scalar(), number, key, p);
}

std::string expected_forms(const PolicyFamily& family) {
    std::vector<std::string> forms;
    for (const FamilyRow& row : family.rows) {
        const bool needs_value = std::any_of(row.params.begin(), row.params.end(), [](const ParamSpec& s) { return s.required(); });
        forms.push_back(needs_value ? "{" + usage_of(row.name, row.params) + "}" : std::string(row.name));
    }
    const std::string last = forms.back();
    forms.pop_back();
    return forms.empty() ? "expected " + last : fmt::format("expected {} or {}", fmt::join(forms, ", "), last);
}

void parse_policy_choices(const YAML::Node& policy, const Parser& p, PolicySpec& spec) {
    for (const PolicyFamily& family : policy_families()) {
        const YAML::Node node = node_at(policy, below_policy(family.key));
        if (!node) continue;
        Choice choice = parse_choice(node, family, p);
        family.name(spec) = std::move(choice.name);
        family.params(spec) = std::move(choice.params);
    }
    for (const PolicyFamily& family : policy_families())
        if (family.flat_params) parse_flat_params(policy, family, p, spec);
}

}  // namespace memsim
