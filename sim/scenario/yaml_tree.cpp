// Generic YAML helpers of the scenario layer: --set overrides, YAML to JSON (for the
// summary's scenario_resolved), file loading.
#include <algorithm>
#include <sstream>

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/parser.h>

#include "models/io/input_file.h"
#include "sim/scenario/parser.h"
#include "sim/scenario/scenario.h"
#include "sim/scenario/set_origin.h"
#include "sim/scenario/yaml_control.h"

namespace memsim {

namespace {

// Where each document starts; everything else is ignored.
class DocumentStarts : public YAML::EventHandler {
public:
    std::vector<YAML::Mark> marks;
    void OnDocumentStart(const YAML::Mark& mark) override { marks.push_back(mark); }
    void OnDocumentEnd() override {}
    void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
    void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
    void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t, const std::string&) override {}
    void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {}
    void OnSequenceEnd() override {}
    void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {}
    void OnMapEnd() override {}
};

}  // namespace

YAML::Node load_yaml_text(const std::string& text, const std::string& label, const std::string& what) {
    if (const auto at = first_yaml_control_byte(text)) {
        const std::size_t line_start = text.rfind('\n', *at) == std::string::npos ? 0 : text.rfind('\n', *at) + 1;
        const auto line = 1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(*at), '\n');
        throw InputError(fmt::format("{}: line {}, column {}: control character 0x{:02x} (YAML allows none but tab, line "
                                     "feed and carriage return; write it escaped in a double-quoted string)",
                                     label, line, *at - line_start + 1, static_cast<unsigned char>(text[*at])));
    }
    // Documents are counted by a parser that builds nothing, at most two: YAML::LoadAll
    // loops forever, allocating, when a ',' stands outside every bracket at the top level
    // (each call leaves it unread and returns another empty document: the scenario fuzz
    // target's timeout). YAML::Load then builds the first document only.
    DocumentStarts starts;
    YAML::Node root;
    try {
        std::istringstream in(text);
        YAML::Parser parser(in);
        while (starts.marks.size() < 2 && parser.HandleNextDocument(starts)) {
        }
        root = YAML::Load(text);
    } catch (const YAML::Exception& e) {
        throw InputError(fmt::format("{}: invalid YAML at line {}: {}", label, e.mark.line + 1, e.msg));
    }
    // A second document (after a '---' line) would be ignored without a word.
    if (starts.marks.size() > 1)
        throw InputError(fmt::format("{}: holds 2 YAML documents (the second from line {}: after a '---' or '...' line, or "
                                     "text after the first one ended, such as a ',' outside brackets); a {} is one document",
                                     label, starts.marks[1].line + 1, what));
    return root;
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

YAML::Node override_value(const std::string& assignment) {
    if (const auto at = first_yaml_control_byte(assignment)) {  // checked here so the message can quote it
        std::string shown = assignment;
        for (char& c : shown)
            if (first_yaml_control_byte(std::string_view(&c, 1))) c = '?';
        throw InputError(fmt::format("--set '{}': character {} is control character 0x{:02x} (YAML allows none but tab, "
                                     "line feed and carriage return; write it escaped in a double-quoted string)",
                                     shown, *at + 1, static_cast<unsigned char>(assignment[*at])));
    }
    const auto eq = assignment.find('=');
    if (eq == std::string::npos || eq == 0)
        throw InputError(fmt::format("--set '{}': expected KEY=VALUE with a dotted key (e.g. workload.batch=8)", assignment));
    (void)override_path(assignment);  // throws: an empty name in the key
    const std::string text = assignment.substr(eq + 1);
    YAML::Node value = load_yaml_text(text, fmt::format("--set '{}': the value", assignment), "value");
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
