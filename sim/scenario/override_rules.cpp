#include "sim/scenario/override_rules.h"

#include <algorithm>
#include <filesystem>
#include <string_view>
#include <optional>
#include <utility>

#include <fmt/format.h>

#include "sim/scenario/set_origin.h"

namespace memsim {

namespace fs = std::filesystem;

namespace {

// The two ways to give a budget; a platform map holds at most one (sections.cpp checks).
const char* const kBudgetLeaves[] = {"budget", "budget_ratio"};

// The workload's sources, one of which a scenario gives, with the keys that belong to it.
struct WorkloadSource {
    const char* key;
    std::vector<const char*> companions;
};
const WorkloadSource kWorkloadSources[] = {
    {"workload.profile", {"workload.batch", "workload.costs"}},
    {"workload.dtr_log", {}},
    {"workload.torch_snapshot", {}},
    {"workload.synthetic",
     {"workload.n", "workload.layers", "workload.width", "workload.seed", "workload.batch", "workload.input", "workload.classes"}},
};

bool present(const YAML::Node& node) { return node.IsDefined() && !node.IsNull(); }

std::string text_of(const YAML::Node& value) {
    if (value.IsScalar()) return value.Scalar();
    YAML::Emitter out;
    out << YAML::Flow << value;
    return out.c_str();
}

// The budget keys a platform map gives, with their values ("budget_ratio", 0.7).
std::vector<std::pair<std::string, YAML::Node>> budget_in(const YAML::Node& platform) {
    std::vector<std::pair<std::string, YAML::Node>> found;
    if (!platform.IsMap()) return found;
    for (const char* leaf : kBudgetLeaves) {
        const YAML::Node value = lookup_key(platform, std::string("memory.") + leaf);
        if (present(value)) found.emplace_back(leaf, YAML::Clone(value));
    }
    return found;
}

std::string budget_words(const std::vector<std::pair<std::string, YAML::Node>>& budget) {
    std::string words;
    for (const auto& [leaf, value] : budget) words += fmt::format("{}{} {}", words.empty() ? "" : " and ", leaf, text_of(value));
    return words;
}

bool is_budget_key(const std::string& key) { return key == "platform.memory.budget" || key == "platform.memory.budget_ratio"; }

const WorkloadSource* workload_source(const std::string& key) {
    for (const WorkloadSource& s : kWorkloadSources)
        if (key == s.key) return &s;
    return nullptr;
}

// Keys that say the same thing, so that the later of two assignments replaces the earlier.
bool exclusive(const std::string& a, const std::string& b) {
    return (is_budget_key(a) && is_budget_key(b)) || (workload_source(a) && workload_source(b));
}

// `inner` is `outer` or lies under it.
bool within(const std::string& inner, const std::string& outer) {
    return inner == outer || (inner.size() > outer.size() && inner.compare(0, outer.size(), outer) == 0 && inner[outer.size()] == '.');
}

// `platform: configs/phone.yaml` is replaced by that file's contents.
// Returns the file ("" when the platform is written inline).
std::string inline_platform_file(YAML::Node& root, const Parser& p) {
    const YAML::Node given = lookup_key(root, "platform");
    if (!given.IsScalar()) return "";
    const std::string file = p.resolve_path(given.as<std::string>(), "platform");
    YAML::Node platform = load_yaml_file(file, "platform file");
    if (!platform.IsMap()) throw InputError(fmt::format("{}: a platform file must be a map of keys", file));
    if (!platform["name"]) platform["name"] = fs::path(file).stem().string();
    root["platform"] = platform;
    return file;
}

// `later` sets a map that holds `earlier`'s key with the same value (compare's policies
// are built from the scenario with the user's --set applied): nothing is undone.
bool restates(const std::string& later, const std::string& earlier) {
    const std::string outer = override_key(later), inner = override_key(earlier);
    if (outer == inner || !within(inner, outer)) return false;
    try {
        const YAML::Node held = lookup_key(override_value(later), inner.substr(outer.size() + 1));
        const YAML::Node value = override_value(earlier);
        return held.IsScalar() && value.IsScalar() && held.Scalar() == value.Scalar();
    } catch (const std::exception&) {
        return false;
    }
}

// A --set whose effect a later assignment undoes (a later --set, or the value a sweep
// point gives its parameter): the same key, its exclusive partner, or a map above it.
// Output flags are left out: a sweep re-states them for every point. A whole platform
// is applied before every finer key, so it undoes none of them.
std::vector<std::string> inert_sets(const std::vector<std::string>& overrides) {
    std::vector<std::string> warnings;
    for (std::size_t i = 0; i < overrides.size(); ++i) {
        const std::string key = override_key(overrides[i]);
        if (key.empty() || key.rfind("output.", 0) == 0) continue;
        for (std::size_t j = overrides.size(); j-- > i + 1;) {
            if (!undoes(overrides[j], overrides[i])) continue;
            warnings.push_back(fmt::format("--set '{}' has no effect: '{}' (a later --set or the sweep's value) overrides it",
                                           overrides[i], overrides[j]));
            break;
        }
    }
    return warnings;
}

class Applier {
public:
    Applier(YAML::Node& root, const Parser& p) : root_(root), p_(p) {}

    AppliedOverrides run(const std::vector<std::string>& overrides) {
        replace_platform(overrides);
        for (const std::string& o : overrides)
            if (override_key(o) != "platform") apply_finer(o);
        const YAML::Node name = lookup_key(root_, "platform.name");
        if (!platform_changes_.empty() && name.IsScalar() && name.Scalar() != "default")
            out_.notes["platform"] = fmt::format("{} as changed by {}", name.Scalar(), fmt::join(platform_changes_, ", "));
        out_.warnings = inert_sets(overrides);
        return std::move(out_);
    }

private:
    // --set platform=FILE or =MAP: applied before the finer keys. The budget the scenario
    // wrote itself stays unless the new platform names one inline.
    void replace_platform(const std::vector<std::string>& overrides) {
        // Read before anything is replaced: yaml-cpp's assignment rebinds every handle to a node.
        const bool written_inline = lookup_key(root_, "platform").IsMap();
        const auto own = budget_in(lookup_key(root_, "platform"));
        std::string replaced_by;
        bool names_budget = false;
        for (const std::string& o : overrides) {
            if (override_key(o) != "platform") continue;
            apply_override(root_, o, p_.label());
            replaced_by = o;
            names_budget = !budget_in(lookup_key(root_, "platform")).empty();
        }
        out_.platform_file = inline_platform_file(root_, p_);
        budget_origin_ = written_inline ? p_.label() : out_.platform_file;
        if (replaced_by.empty()) return;
        budget_origin_ = out_.platform_file.empty() ? fmt::format("'{}'", replaced_by) : out_.platform_file;
        if (own.empty() || names_budget) return;
        const auto theirs = budget_in(lookup_key(root_, "platform"));
        keep_budget(own);
        std::string note = fmt::format("the {} is the scenario's ({}): '{}' names no budget", budget_words(own), p_.label(), replaced_by);
        if (!theirs.empty())
            note += fmt::format("; {}'s {} is not used (--set platform.memory.{}={} uses it)", out_.platform_file,
                                budget_words(theirs), theirs.front().first, text_of(theirs.front().second));
        out_.notes["budget"] = note;
        budget_origin_ = p_.label();
    }

    void keep_budget(const std::vector<std::pair<std::string, YAML::Node>>& budget) {
        for (const char* leaf : kBudgetLeaves) remove_key(root_, std::string("platform.memory.") + leaf);
        for (const auto& [leaf, value] : budget) set_key(root_, "platform.memory." + leaf, value, p_.label());
    }

    void apply_finer(const std::string& o) {
        const std::string key = override_key(o);
        if (key.empty()) apply_override(root_, o, p_.label());  // throws: not KEY=VALUE
        override_path(o);                                      // throws: an empty name in the key
        p_.check_dotted_key(key, "");
        const YAML::Node value = override_value(o);
        if (is_budget_key(key)) replace_exclusive_budget(o, key);
        std::vector<std::pair<std::string, YAML::Node>> kept;
        if (key == "platform.memory" && value.IsMap()) {
            if (value["budget"] || value["budget_ratio"]) budget_origin_ = fmt::format("'{}'", o);
            else kept = budget_in(lookup_key(root_, "platform"));
        }
        if (const WorkloadSource* source = workload_source(key)) replace_workload_source(o, *source);
        apply_override(root_, o, p_.label());
        if (!kept.empty()) {
            keep_budget(kept);
            out_.notes["budget"] = fmt::format("the {} is kept ({}): '{}' names no budget", budget_words(kept), budget_origin_, o);
        }
        if (within(key, "platform") && !within(key, "platform.memory") && key != "platform.name") platform_changes_.push_back(o);
        if (key == "platform.name") platform_changes_.clear();
    }

    // budget and budget_ratio: the one set later applies.
    void replace_exclusive_budget(const std::string& o, const std::string& key) {
        out_.notes.erase("budget");
        for (const char* leaf : kBudgetLeaves) {
            const std::string other = std::string("platform.memory.") + leaf;
            const YAML::Node old = lookup_key(root_, other);
            if (other == key || !present(old)) continue;
            out_.notes["budget"] = fmt::format("'{}' replaces the {} {} of {}", o, leaf, text_of(old), budget_origin_);
            remove_key(root_, other);
        }
        budget_origin_ = fmt::format("'{}'", o);
    }

    // profile, dtr_log, torch_snapshot, synthetic: the one set later applies, and the keys that belonged
    // to the one it replaces (a profile's batch and costs, a synthetic model's sizes, the
    // forward_end of another operator list) go with it.
    void replace_workload_source(const std::string& o, const WorkloadSource& source) {
        for (const WorkloadSource& other : kWorkloadSources) {
            const YAML::Node old = lookup_key(root_, other.key);
            if (&other == &source || !present(old)) continue;
            std::vector<std::string> dropped;
            std::vector<const char*> keys = other.companions;
            keys.push_back("workload.forward_end");
            for (const char* companion : keys) {
                if (std::find(source.companions.begin(), source.companions.end(), std::string_view(companion)) !=
                    source.companions.end())
                    continue;  // the new source has it too (a batch): the user's setting stays
                const YAML::Node value = lookup_key(root_, companion);
                if (!present(value)) continue;
                dropped.push_back(fmt::format("{} {}", std::string(companion).substr(9), text_of(value)));
                remove_key(root_, companion);
            }
            out_.notes["workload"] = fmt::format("'{}' replaces the {} {}{}", o, std::string(other.key).substr(9), text_of(old),
                                                 dropped.empty() ? "" : fmt::format(" and its {}", fmt::join(dropped, ", ")));
            remove_key(root_, other.key);
        }
    }

    YAML::Node& root_;
    const Parser& p_;
    AppliedOverrides out_;
    std::string budget_origin_;                 // who gave the budget as it stands
    std::vector<std::string> platform_changes_;  // finer platform keys set after the platform's own
};

}  // namespace

bool undoes(const std::string& later_assignment, const std::string& earlier_assignment) {
    const std::string later = override_key(later_assignment), earlier = override_key(earlier_assignment);
    if (later.empty() || earlier.empty() || (later == "platform" && earlier != "platform")) return false;
    return (within(earlier, later) && !restates(later_assignment, earlier_assignment)) || exclusive(earlier, later);
}

AppliedOverrides apply_scenario_overrides(YAML::Node& root, const std::vector<std::string>& overrides, const Parser& p) {
    return Applier(root, p).run(overrides);
}

}  // namespace memsim
