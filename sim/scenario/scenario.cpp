#include "sim/scenario/scenario.h"

#include <filesystem>

#include "sim/scenario/sections.h"
#include "sim/scenario/value_limits.h"
#include "sim/scenario/yaml_guard.h"

namespace memsim {

namespace fs = std::filesystem;

namespace {

// `platform: configs/phone.yaml` is replaced by that file's contents.
void inline_platform_file(YAML::Node& root, const Parser& p) {
    if (!root["platform"] || !root["platform"].IsScalar()) return;
    const std::string file = p.resolve_path(root["platform"].as<std::string>(), "platform");
    YAML::Node platform = load_yaml_file(file, "platform file");
    if (!platform.IsMap()) throw InputError(fmt::format("{}: a platform file must be a map of keys", file));
    if (!platform["name"]) platform["name"] = fs::path(file).stem().string();
    root["platform"] = platform;
}

Scenario build(YAML::Node root, const std::string& label, const std::vector<std::string>& overrides,
               const std::string& base_dir, const std::string& default_name) {
    Parser p(label, base_dir);
    if (root.IsNull()) root = YAML::Node(YAML::NodeType::Map);
    if (!root.IsMap()) throw InputError(fmt::format("{}: a scenario must be a map of keys", label));
    // A platform file named by --set is inlined before the finer overrides apply.
    for (const std::string& o : overrides)
        if (o.rfind("platform=", 0) == 0) apply_override(root, o, label);
    inline_platform_file(root, p);
    for (const std::string& o : overrides) {
        if (o.rfind("platform=", 0) == 0) continue;
        const std::string key = o.substr(0, o.find('='));
        p.check_dotted_key(key, "");
        apply_override(root, o, label);
    }
    check_yaml_tree(root, label);  // aliases, duplicate keys: before anything walks the tree
    p.check_keys(root, schema(), "");

    Scenario s;
    s.file = label;
    s.name = root["name"] ? p.text(root["name"], "name") : default_name;
    if (root["description"]) s.description = p.text(root["description"], "description");
    s.workload = parse_workload(root["workload"], p);
    s.platform = parse_platform(root["platform"], p);
    s.policy = parse_policy(root["policy"], p);
    s.output = parse_output(root["output"], p, s.name);
    s.resolved = root;
    check_value_limits(s);  // after unit conversion: what SimGrid can run
    return s;
}

}  // namespace

Scenario load_scenario(const std::string& path, const std::vector<std::string>& overrides) {
    YAML::Node root = load_yaml_file(path, "scenario");
    const fs::path p(path);
    return build(root, path, overrides, p.parent_path().empty() ? "." : p.parent_path().string(), p.stem().string());
}

Scenario parse_scenario(const std::string& yaml_text, const std::string& label, const std::vector<std::string>& overrides,
                        const std::string& base_dir) {
    YAML::Node root;
    try {
        root = YAML::Load(yaml_text);
    } catch (const YAML::Exception& e) {
        throw InputError(fmt::format("{}: invalid YAML at line {}: {}", label, e.mark.line + 1, e.msg));
    }
    return build(root, label, overrides, base_dir, "scenario");
}

}  // namespace memsim
