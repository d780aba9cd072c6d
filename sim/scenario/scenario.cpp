#include "sim/scenario/scenario.h"

#include <filesystem>

#include "sim/scenario/output_name.h"
#include "sim/scenario/override_rules.h"
#include "sim/scenario/sections.h"
#include "sim/scenario/set_origin.h"
#include "sim/scenario/value_limits.h"
#include "sim/scenario/yaml_guard.h"

namespace memsim {

namespace fs = std::filesystem;

namespace {

bool key_set_by(const std::vector<std::string>& overrides, const std::string& key) {
    for (const std::string& o : overrides)
        if (override_key(o) == key) return true;
    return false;
}

Scenario build(YAML::Node root, const std::string& label, const std::vector<std::string>& overrides,
               const std::string& base_dir, const std::string& default_name) {
    Parser p(label, base_dir);
    p.set_overrides(overrides);
    if (root.IsNull()) root = YAML::Node(YAML::NodeType::Map);
    if (!root.IsMap()) throw InputError(fmt::format("{}: a scenario must be a map of keys", label));
    check_yaml_tree(root, label);  // aliases, duplicate keys: before anything walks the tree
    AppliedOverrides applied = apply_scenario_overrides(root, overrides, p);
    check_yaml_tree(root, label);  // and what the overrides (a platform file) brought in
    p.check_keys(root, schema(), "");

    Scenario s;
    s.file = label;
    s.name = root["name"] ? p.text(root["name"], "name") : default_name;
    if (root["description"]) s.description = p.text(root["description"], "description");
    s.workload = parse_workload(root["workload"], p);
    s.platform = parse_platform(root["platform"], p);
    s.policy = parse_policy(root["policy"], p);
    s.output = parse_output(root["output"], p, s.name);
    // A run with --set does not overwrite the run without: unless --set chose the folder.
    if (!key_set_by(overrides, "output.dir")) s.output.dir = output_dir_with_overrides(s.output.dir, overrides);
    s.resolved = root;
    s.overrides = overrides;
    s.platform_file = applied.platform_file;
    s.warnings = std::move(applied.warnings);
    s.notes = std::move(applied.notes);
    check_value_limits(s);  // after unit conversion: what SimGrid can run
    return s;
}

}  // namespace

Scenario load_scenario(const std::string& path, const std::vector<std::string>& overrides) {
    return ScenarioFile(path).load(overrides);
}

ScenarioFile::ScenarioFile(const std::string& path) : path_(path), root_(load_yaml_file(path, "scenario")) {}

Scenario ScenarioFile::load(const std::vector<std::string>& overrides) const {
    const fs::path p(path_);
    return build(YAML::Clone(root_), path_, overrides, p.parent_path().empty() ? "." : p.parent_path().string(),
                 p.stem().string());
}

Scenario ScenarioFile::load_point(const std::vector<std::string>& overrides) const {
    // A copy of every top-level entry but the sweep (a scenario that is not a map is
    // copied whole, for build to refuse it as load would).
    YAML::Node root;
    if (root_.IsMap()) {
        root = YAML::Node(YAML::NodeType::Map);
        for (const auto& entry : root_)
            if (!entry.first.IsScalar() || entry.first.Scalar() != "sweep") root[YAML::Clone(entry.first)] = YAML::Clone(entry.second);
    } else {
        root = YAML::Clone(root_);
    }
    const fs::path p(path_);
    Scenario s = build(root, path_, overrides, p.parent_path().empty() ? "." : p.parent_path().string(), p.stem().string());
    s.resolved.remove("sweep");  // a --set sweep=... of the user's, applied to every point
    return s;
}

Scenario parse_scenario(const std::string& yaml_text, const std::string& label, const std::vector<std::string>& overrides,
                        const std::string& base_dir) {
    return build(load_yaml_text(yaml_text, label, "scenario"), label, overrides, base_dir, "scenario");
}

}  // namespace memsim
