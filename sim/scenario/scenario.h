// A scenario: the question a user asks (workload, platform, policy, outputs), read
// from YAML, with --set overrides by dotted path, units, and validation against a
// schema (unknown keys are errors with the closest valid key suggested).
#pragma once

#include <cstdint>
#include <map>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>
#include <yaml-cpp/yaml.h>

#include "models/parallel/data_parallel.h"
#include "models/platform/platform_spec.h"
#include "models/policy_params.h"

namespace memsim {

struct WorkloadSpec {
    std::string profile;   // MNN profile folder
    int batch = 0;
    std::optional<int> forward_end;
    std::string costs = "measured";  // measured (= recorded) | linear_fit (MNN profiles) | device (docs/gpu_model.md)
    std::string dtr_log;   // DTR operator log
    std::string torch_snapshot;  // PyTorch memory snapshot (pickle) with a device trace
    std::string synthetic; // built-in generator name
    std::map<std::string, double> synthetic_params;
    std::map<std::string, std::string> synthetic_words;  // gpt: precision, dropout, checkpointing
};

// Each policy choice is the name of a row of its family's table and the parameters the
// scenario gave it (`*_params`: only those written; the row's defaults fill the rest
// when the policy is built). sim/scenario/policy_families.cpp says which field holds
// which family's choice.
struct SwapSpec {
    std::string mode = "none";            // models/swap/mode/swap_modes.cpp
    std::string select = "feature_maps";  // models/swap/selection/swap_selections.cpp
    std::string prefetch = "budget";      // models/swap/prefetch/prefetch_rules.cpp
    std::string placement = "disk";       // models/swap/placement/placement_rules.cpp (docs/tiers.md)
    std::string path = "bounce";          // the same file's swap_paths()
    ParamValues mode_params, select_params, prefetch_params, placement_params, path_params;
};

struct RecomputeSpec {
    std::string heuristic;  // empty: no dynamic recomputation
    std::string planner;    // empty: no planned recomputation
    ParamValues heuristic_params, planner_params;
    std::optional<double> max_overhead;
};

struct PolicySpec {
    std::string allocator = "os";
    std::string semantics = "simulated";  // models/semantics/semantics.cpp
    ParamValues allocator_params, semantics_params;
    // Parameters written beside a family's key that its chosen row does not take
    // (policy.torch_alloc_conf with allocator pool): "has no effect" warnings.
    std::vector<std::string> ignored_params;
    SwapSpec swap;
    RecomputeSpec recompute;
    bool hybrid = false;
    // policy.data_parallel (docs/parallel.md); unset: the GPUs are independent replicas.
    std::optional<DataParallelSpec> data_parallel;
};

struct OutputSpec {
    std::string dir;  // default out/<scenario name>
    // The names of the rows of output_table() (sim/scenario/output_table.h) the scenario
    // turns on (output.NAME: true); the always rows are not in it.
    std::set<std::string, std::less<>> on;
    [[nodiscard]] bool wants(std::string_view name) const { return on.find(name) != on.end(); }
};

struct Scenario {
    std::string name;
    std::string description;
    std::string file;         // where it was read from ("" when built in code)
    std::vector<std::string> overrides;  // the --set assignments applied, in order
    std::string platform_file;           // the platform file inlined ("" when written inline)
    std::vector<std::string> warnings;   // inert settings found while loading (an override overridden later)
    // Where a setting's value came from when an override resolved a conflict for it (a
    // kept budget, an exclusive key replaced): setting name as in the run header
    // ("budget", "workload", "platform") -> a sentence. sim/scenario/override_rules.h.
    std::map<std::string, std::string> notes;
    YAML::Node resolved;      // after platform-file inlining and --set overrides
    WorkloadSpec workload;
    PlatformSpec platform;
    PolicySpec policy;
    OutputSpec output;
};

// Reads `path`, applies `overrides` ("dotted.key=value", value parsed as YAML), validates.
// Throws InputError naming the file, the key and the value.
Scenario load_scenario(const std::string& path, const std::vector<std::string>& overrides = {});
// Same, from YAML text (tests); relative paths resolve against `base_dir`.
Scenario parse_scenario(const std::string& yaml_text, const std::string& label,
                        const std::vector<std::string>& overrides = {}, const std::string& base_dir = ".");

// A scenario file read and parsed once, to build many scenarios from it: the points of a
// sweep. Each point costs what the file holds besides its sweep section, not the whole
// file again (a sweep key with N values would make N points cost N^2).
class ScenarioFile {
public:
    explicit ScenarioFile(const std::string& path);  // throws InputError as load_scenario does
    // load_scenario(path, overrides), from the parsed file.
    [[nodiscard]] Scenario load(const std::vector<std::string>& overrides) const;
    // The same, without the sweep section: the scenario one point of the sweep runs. Its
    // `resolved` has no sweep section (a point's summary.json does not repeat the sweep).
    [[nodiscard]] Scenario load_point(const std::vector<std::string>& overrides) const;
    [[nodiscard]] const std::string& path() const { return path_; }

private:
    std::string path_;
    YAML::Node root_;
};

// Applies one "dotted.key=value" override to a YAML tree (creating maps as needed); a
// null value (KEY=null or KEY=~) removes the key instead. The rules between overrides
// (exclusive keys, a replaced platform) are in sim/scenario/override_rules.h.
void apply_override(YAML::Node& root, const std::string& assignment, const std::string& label);
// The value of a "dotted.key=value" override, parsed as YAML ("" stays an empty string).
YAML::Node override_value(const std::string& assignment);
// The node at a dotted key (undefined when absent); never creates anything.
YAML::Node lookup_key(const YAML::Node& root, const std::string& dotted);
// Sets / removes the node at a dotted key (set creates the maps above it).
void set_key(YAML::Node& root, const std::string& dotted, const YAML::Node& value, const std::string& label);
void remove_key(YAML::Node& root, const std::string& dotted);
nlohmann::json yaml_to_json(const YAML::Node& node);

// The checks across fields that parsing alone cannot make (a selection that needs a
// budget, semantics that exist for one selection only, ...). Throws InputError naming
// the file and the key. The run pipeline calls it before anything runs.
void validate_policy(const Scenario& scenario);

}  // namespace memsim
