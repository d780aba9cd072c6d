// A scenario: the question a user asks (workload, platform, policy, outputs), read
// from YAML, with --set overrides by dotted path, units, and validation against a
// schema (unknown keys are errors with the closest valid key suggested).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <yaml-cpp/yaml.h>

#include "models/recompute/eviction_heuristic.h"

namespace memsim {

struct WorkloadSpec {
    std::string profile;   // MNN profile folder
    int batch = 0;
    std::optional<int> forward_end;
    std::string costs = "measured";  // measured | linear_fit (MNN profiles)
    std::string dtr_log;   // DTR operator log
    std::string synthetic; // built-in generator name
    std::map<std::string, double> synthetic_params;
};

// The profiled phone's disk: 104094472 bytes in 4.452 s (the default disk).
inline constexpr double kPhoneDiskBytes = 104094472.0;
inline constexpr double kPhoneDiskSeconds = 4.452;
inline constexpr double kPhoneDiskBytesPerS = kPhoneDiskBytes / kPhoneDiskSeconds;

struct DiskSpec {
    double read_bytes_per_s = kPhoneDiskBytesPerS;
    double write_bytes_per_s = kPhoneDiskBytesPerS;
    double read_latency_ms = 0.0;
    double write_latency_ms = 0.0;
};

struct PlatformSpec {
    std::string name = "default";
    double gpu_speed_scale = 1.0;
    DiskSpec disk;
    std::optional<std::uint64_t> memory_budget;
    // platform.memory.budget_ratio: the budget as a fraction of the workload's live-bytes
    // (os) peak whatever the allocator (docs/budgets.md), resolved into memory_budget once the workload
    // is loaded (resolve_run_config in sim/run/run_config.h). Exclusive with budget.
    std::optional<double> memory_budget_ratio;
    // platform.memory.allow_ratio_above_one: a budget_ratio above 1 (more memory than the
    // workload ever holds) is accepted only when the user says they mean it.
    bool allow_ratio_above_one = false;
};

// policy.swap.prefetch: a rule of the prefetch table (models/swap/prefetch/) and its
// parameter, if the rule takes one.
struct PrefetchSpec {
    std::string rule = "budget";  // models/swap/prefetch/prefetch_rules.cpp
    int lead_ops = 0;
    double lead_ms = 0.0;
    std::optional<std::uint64_t> cap_bytes;  // {budget: {cap: SIZE}}: rules that take a memory cap
};

struct SwapSpec {
    std::string mode = "none";            // models/swap/mode/swap_modes.cpp
    std::string select = "feature_maps";  // models/swap/selection/swap_selections.cpp
    PrefetchSpec prefetch;
};

struct RecomputeSpec {
    std::string heuristic;  // empty: no dynamic recomputation
    std::string planner;    // empty: no planned recomputation
    HeuristicParams params;
    std::optional<double> max_overhead;
};

struct PolicySpec {
    std::string allocator = "os";
    std::string semantics = "simulated";  // models/semantics/semantics.cpp
    SwapSpec swap;
    RecomputeSpec recompute;
    bool hybrid = false;
};

struct OutputSpec {
    std::string dir;  // default out/<scenario name>
    bool events = false;
    bool gantt = false;
    bool trace = false;
};

struct Scenario {
    std::string name;
    std::string description;
    std::string file;         // where it was read from ("" when built in code)
    std::vector<std::string> overrides;  // the --set assignments applied, in order
    std::string platform_file;           // the platform file inlined ("" when written inline)
    std::vector<std::string> warnings;   // inert settings found while loading (an override overridden later)
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

// Applies one "dotted.key=value" override to a YAML tree (creating maps as needed).
void apply_override(YAML::Node& root, const std::string& assignment, const std::string& label);
nlohmann::json yaml_to_json(const YAML::Node& node);

// The checks across fields that parsing alone cannot make (a selection that needs a
// budget, semantics that exist for one selection only, ...). Throws InputError naming
// the file and the key. The run pipeline calls it before anything runs.
void validate_policy(const Scenario& scenario);

}  // namespace memsim
