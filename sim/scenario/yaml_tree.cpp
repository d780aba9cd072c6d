// Generic YAML helpers of the scenario layer: --set overrides, YAML to JSON (for the
// summary's scenario_resolved), file loading.
#include <algorithm>

#include "models/io/input_file.h"
#include "sim/scenario/parser.h"
#include "sim/scenario/scenario.h"
#include "sim/scenario/set_origin.h"

namespace memsim {

YAML::Node load_yaml_text(const std::string& text, const std::string& label, const std::string& what) {
    std::vector<YAML::Node> documents;
    try {
        documents = YAML::LoadAll(text);
    } catch (const YAML::Exception& e) {
        throw InputError(fmt::format("{}: invalid YAML at line {}: {}", label, e.mark.line + 1, e.msg));
    }
    // A second document (after a '---' line) would be ignored without a word.
    if (documents.size() > 1)
        throw InputError(fmt::format("{}: holds {} YAML documents (separated by '---' or '...' lines); a {} is one document",
                                     label, documents.size(), what));
    return documents.empty() ? YAML::Node() : documents.front();
}

YAML::Node load_yaml_file(const std::string& path, const std::string& what) {
    return load_yaml_text(read_input_file(path, what, kMaxYamlFileBytes), path, what);
}

std::vector<std::string> override_path(const std::string& assignment) {
    const std::string key = override_key(assignment);
    std::vector<std::string> parts;
    std::size_t begin = 0;
    for (;;) {
        const std::size_t dot = key.find('.', begin);
        parts.push_back(key.substr(begin, dot == std::string::npos ? std::string::npos : dot - begin));
        if (parts.back().empty())
            throw InputError(fmt::format("--set '{}': the key '{}' has an empty name {} (a key is dotted names, e.g. "
                                         "workload.batch=8)",
                                         assignment, key,
                                         begin == 0 ? "before its first dot" : dot == std::string::npos ? "after its last dot"
                                                                                                         : "between two dots"));
        if (dot == std::string::npos) return parts;
        begin = dot + 1;
    }
}

void apply_override(YAML::Node& root, const std::string& assignment, const std::string& label) {
    const auto eq = assignment.find('=');
    if (eq == std::string::npos || eq == 0)
        throw InputError(fmt::format("--set '{}': expected KEY=VALUE with a dotted key (e.g. workload.batch=8)", assignment));
    const std::string key = assignment.substr(0, eq), text = assignment.substr(eq + 1);
    const std::vector<std::string> parts = override_path(assignment);
    YAML::Node value = load_yaml_text(text, fmt::format("--set '{}': the value", assignment), "value");
    if (value.IsNull() && text.empty()) value = YAML::Node(std::string());
    // yaml-cpp nodes are handles: walk down with fresh handles, never reassigning one.
    std::vector<YAML::Node> chain{root};
    for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
        YAML::Node next = chain.back()[parts[i]];
        if (!next.IsMap()) {
            if (next.IsDefined() && !next.IsNull())
                throw InputError(fmt::format("{}: --set {}: '{}' is a single value, not a map", label, key, parts[i]));
            chain.back()[parts[i]] = YAML::Node(YAML::NodeType::Map);
            next = chain.back()[parts[i]];
        }
        chain.push_back(next);
    }
    chain.back()[parts.back()] = value;
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
