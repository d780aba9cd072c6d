// Reading scenario YAML: typed scalars, choices and paths that fail with the file, the
// key and the value; unknown keys rejected with the closest valid key suggested.
#pragma once

#include <algorithm>
#include <filesystem>
#include <sstream>
#include <string>
#include <system_error>
#include <vector>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include "models/policy_table.h"
#include "models/workload/input_error.h"
#include "sim/scenario/scenario.h"
#include "sim/scenario/schema.h"
#include "sim/scenario/set_origin.h"
#include "sim/scenario/source_tree.h"

namespace memsim {

class Parser {
public:
    Parser(std::string label, std::string base_dir) : label_(std::move(label)), base_dir_(std::move(base_dir)) {}

    // A key the user set with --set is reported as that --set (set_origin.h).
    [[noreturn]] void fail(const std::string& key, const std::string& what) const {
        throw InputError(
            fmt::format("{}: {}: {}", key_origin(label_, overrides_, key), key.empty() ? "(top level)" : key, what));
    }

    void set_overrides(std::vector<std::string> overrides) { overrides_ = std::move(overrides); }

    // Unknown keys anywhere are errors, with the closest valid key suggested.
    void check_keys(const YAML::Node& node, const Field& field, const std::string& path) const {
        if (field.kind == Kind::Sweep) {
            if (!node.IsMap()) fail(path, "must map dotted keys to lists of values");
            for (const auto& kv : node) {
                const std::string key = kv.first.as<std::string>();
                if (!kv.second.IsSequence() || kv.second.size() == 0)
                    fail(path + "." + key, "must be a non-empty list of values");
                check_dotted_key(key, path);
            }
            return;
        }
        if (field.kind == Kind::List) {
            if (!node.IsSequence()) fail(path, "expected a list");
            const Field element{field.key, Kind::Map, field.children};
            for (std::size_t i = 0; i < node.size(); ++i) check_keys(node[i], element, fmt::format("{}[{}]", path, i));
            return;
        }
        if (field.kind == Kind::Choice) return;  // a policy choice: its parser checks every form (policy_choice.h)
        if (field.kind == Kind::PlatformRef && node.IsScalar()) return;
        if (field.kind != Kind::Map && field.kind != Kind::PlatformRef) {
            if (!node.IsScalar()) fail(path, "expected a single value, not a list or a map");
            return;
        }
        if (node.IsNull()) return;
        if (!node.IsMap()) fail(path, "expected a map of keys");
        for (const auto& kv : node) {
            const std::string key = kv.first.as<std::string>();
            const std::string sub = path.empty() ? key : path + "." + key;
            auto it = std::find_if(field.children.begin(), field.children.end(), [&](const Field& f) { return f.key == key; });
            if (it == field.children.end()) {
                std::vector<std::string> names;
                for (const Field& f : field.children) names.push_back(f.key);
                fail(sub, fmt::format("unknown key '{}'{}", key, suggestion(key, names)));
            }
            check_keys(kv.second, *it, sub);
        }
    }

    void check_dotted_key(const std::string& dotted, const std::string& where) const {
        const Field* field = &schema();
        std::string path;
        std::stringstream ss(dotted);
        std::string part;
        while (std::getline(ss, part, '.')) {
            if (!path.empty() && field->children.empty() && field->kind != Kind::Map && field->kind != Kind::Sweep)
                fail(where.empty() ? dotted : where + "." + dotted,
                     fmt::format("'{}' is a single value, not a map", path));
            if (field->kind == Kind::Sweep)  // its keys are dotted themselves: no dotted path can name one
                fail(where.empty() ? dotted : where + "." + dotted,
                     fmt::format("'{}' maps dotted scenario keys to lists, so a dotted --set key cannot reach inside it; "
                                 "set the whole section, e.g. --set '{}={{workload.batch: [1, 2]}}'",
                                 path, path));
            path = path.empty() ? part : path + "." + part;
            auto it = std::find_if(field->children.begin(), field->children.end(), [&](const Field& f) { return f.key == part; });
            if (it == field->children.end()) {
                std::vector<std::string> names;
                for (const Field& f : field->children) names.push_back(f.key);
                fail(where.empty() ? dotted : where + "." + dotted,
                     fmt::format("unknown key '{}'{}", path, suggestion(part, names)));
            }
            field = &*it;
        }
    }

    static std::string suggestion(const std::string& key, const std::vector<std::string>& names) {
        const std::string best = closest_name(key, names);
        if (names.empty()) return "";
        return best.empty() ? fmt::format(" (valid: {})", fmt::join(names, ", "))
                            : fmt::format(" (did you mean '{}'?)", best);
    }

    template <typename T>
    T scalar(const YAML::Node& node, const std::string& key, const char* what) const {
        try {
            return node.as<T>();
        } catch (const YAML::Exception&) {
            fail(key, fmt::format("'{}' is not {}", node.as<std::string>(), what));
        }
    }

    std::string text(const YAML::Node& node, const std::string& key) const { return scalar<std::string>(node, key, "a string"); }

    template <typename F>
    auto with_units(const YAML::Node& node, const std::string& key, F parse) const {
        try {
            return parse(text(node, key));
        } catch (const std::invalid_argument& e) {
            fail(key, e.what());
        }
    }

    std::string choice(const YAML::Node& node, const std::string& key, const std::vector<std::string>& choices) const {
        const std::string value = text(node, key);
        if (std::find(choices.begin(), choices.end(), value) == choices.end())
            fail(key, fmt::format("unknown value '{}'{}", value, suggestion(value, choices)));
        return value;
    }

    std::string path(const YAML::Node& node, const std::string& key) const {
        const std::string p = text(node, key);
        if (p.empty()) fail(key, "empty path");
        return resolve_path(p, key);
    }

    // Relative paths: the working directory first, then the scenario's folder, then the
    // memsim source tree (so shipped scenarios run from anywhere).
    std::string resolve_path(const std::string& p, const std::string& key) const {
        namespace fs = std::filesystem;
        const fs::path given(p);
        if (given.is_absolute()) return p;
        const std::vector<fs::path> tries = {given, fs::path(base_dir_) / given, fs::path(source_tree()) / given};
        std::error_code error;  // a name too long for the OS is "does not exist", not library text
        for (const fs::path& t : tries)
            if (fs::exists(t, error)) return t.lexically_normal().string();
        fail(key, fmt::format("'{}' does not exist (looked in the working directory, {} and {})", p, base_dir_, source_tree()));
    }

    const std::string& label() const { return label_; }
    const std::string& base_dir() const { return base_dir_; }

private:
    std::string label_;
    std::string base_dir_;
    std::vector<std::string> overrides_;
};

// A file or text holding exactly one YAML document (a second one is an error, not ignored).
YAML::Node load_yaml_file(const std::string& path, const std::string& what);
YAML::Node load_yaml_text(const std::string& text, const std::string& label, const std::string& what);
// The names of a --set key, each non-empty (`platform.=x` is an error naming the gap).
std::vector<std::string> override_path(const std::string& assignment);

}  // namespace memsim
