// Generic YAML helpers of the scenario layer: --set overrides, YAML to JSON (for the
// summary's scenario_resolved), file loading.
#include <algorithm>
#include <fstream>
#include <sstream>

#include "models/io/input_file.h"
#include "app/scenario/parser.h"
#include "app/scenario/scenario.h"

namespace memsim {

YAML::Node load_yaml_file(const std::string& path, const std::string& what) {
    check_input_file(path, what);
    std::ifstream in(path);
    if (!in) throw InputError(fmt::format("{}: cannot open {}", path, what));
    try {
        return YAML::Load(in);
    } catch (const YAML::Exception& e) {
        throw InputError(fmt::format("{}: invalid YAML at line {}: {}", path, e.mark.line + 1, e.msg));
    }
}

YAML::Node override_value(const std::string& assignment) {
    const auto eq = assignment.find('=');
    if (eq == std::string::npos || eq == 0)
        throw InputError(fmt::format("--set '{}': expected KEY=VALUE with a dotted key (e.g. workload.batch=8)", assignment));
    const std::string text = assignment.substr(eq + 1);
    YAML::Node value;
    try {
        value = YAML::Load(text);
    } catch (const YAML::Exception& e) {
        throw InputError(fmt::format("--set '{}': the value is not valid YAML: {}", assignment, e.msg));
    }
    if (value.IsNull() && text.empty()) value = YAML::Node(std::string());
    return value;
}

namespace {

std::vector<std::string> key_parts(const std::string& dotted) {
    std::vector<std::string> parts;
    std::stringstream ss(dotted);
    for (std::string part; std::getline(ss, part, '.');) parts.push_back(part);
    return parts;
}

YAML::Node lookup_parts(const YAML::Node& node, const std::vector<std::string>& parts, std::size_t i) {
    if (i == parts.size()) return node;
    if (!node.IsMap() || !node[parts[i]]) return YAML::Node(YAML::NodeType::Undefined);
    return lookup_parts(node[parts[i]], parts, i + 1);
}

}  // namespace

YAML::Node lookup_key(const YAML::Node& root, const std::string& dotted) { return lookup_parts(root, key_parts(dotted), 0); }

void set_key(YAML::Node& root, const std::string& dotted, const YAML::Node& value, const std::string& label) {
    const std::vector<std::string> parts = key_parts(dotted);
    // yaml-cpp nodes are handles: walk down with fresh handles, never reassigning one.
    std::vector<YAML::Node> chain{root};
    for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
        YAML::Node next = chain.back()[parts[i]];
        if (!next.IsMap()) {
            if (next.IsDefined() && !next.IsNull())
                throw InputError(fmt::format("{}: --set {}: '{}' is a single value, not a map", label, dotted, parts[i]));
            chain.back()[parts[i]] = YAML::Node(YAML::NodeType::Map);
            next = chain.back()[parts[i]];
        }
        chain.push_back(next);
    }
    chain.back()[parts.back()] = value;
}

void remove_key(YAML::Node& root, const std::string& dotted) {
    const std::vector<std::string> parts = key_parts(dotted);
    const YAML::Node parent = parts.size() == 1 ? root : lookup_parts(root, {parts.begin(), parts.end() - 1}, 0);
    if (parent.IsMap() && parent[parts.back()]) {
        YAML::Node handle = parent;  // a handle to the same map
        handle.remove(parts.back());
    }
}

void apply_override(YAML::Node& root, const std::string& assignment, const std::string& label) {
    const YAML::Node value = override_value(assignment);
    const std::string key = assignment.substr(0, assignment.find('='));
    // KEY=null (or ~) unsets the key: the scenario's value goes, the default applies.
    if (value.IsNull()) remove_key(root, key);
    else set_key(root, key, value, label);
}

nlohmann::json yaml_to_json(const YAML::Node& node) {
    if (!node || node.IsNull()) return nullptr;
    if (node.IsMap()) {
        nlohmann::json j = nlohmann::json::object();
        for (const auto& kv : node) j[kv.first.as<std::string>()] = yaml_to_json(kv.second);
        return j;
    }
    if (node.IsSequence()) {
        nlohmann::json j = nlohmann::json::array();
        for (const auto& v : node) j.push_back(yaml_to_json(v));
        return j;
    }
    const std::string s = node.as<std::string>();
    if (node.Tag() == "!") return s;  // quoted in the source: keep it a string
    if (s == "true" || s == "false") return s == "true";
    try {
        std::size_t used = 0;
        const long long i = std::stoll(s, &used);
        if (used == s.size()) return i;
        const double d = std::stod(s, &used);
        if (used == s.size()) return d;
    } catch (const std::exception&) {
    }
    return s;
}

}  // namespace memsim
