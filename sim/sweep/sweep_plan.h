// A sweep: the scenario's `sweep:` section (dotted keys -> value lists) expanded into
// its cartesian product. The first key varies slowest, in the order the file writes
// them, so point numbers are stable. The plan is saved as DIR/sweep.json so that
// `memsim merge DIR` knows the points of a sweep whose jobs ran elsewhere.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/scenario/scenario.h"

namespace memsim {

struct SweepParameter {
    std::string key;                  // dotted scenario key, e.g. platform.disk.bandwidth
    std::vector<std::string> values;  // as YAML text, passed on as --set key=value
};

struct SweepPoint {
    int index = 0;                    // 1-based: line `index` of jobs.txt, Slurm array task id
    std::vector<std::string> values;  // one per parameter
};

struct SweepPlan {
    std::string scenario_file;           // absolute path
    std::string scenario_name;
    std::vector<std::string> overrides;  // the user's --set, applied to every point before the swept values
    std::vector<SweepParameter> parameters;
    std::vector<SweepPoint> points;
    bool events = false, gantt = false, trace = false;  // the scenario's output flags
    std::string default_dir;             // the scenario's output.dir
};

// The most points one sweep may have; each point is a process and a folder.
inline constexpr std::size_t kMaxSweepPoints = 100000;

// Reads the scenario, applies the user's overrides and checks every point as `memsim run`
// would; throws InputError naming the file, key and value of the first bad one.
SweepPlan plan_sweep(const std::string& scenario_file, const std::vector<std::string>& overrides);

// What `memsim run` checks of a scenario's sweep: section beyond its keys: every value
// can be written as a --set value and the product stays within kMaxSweepPoints. (Each
// point is checked by plan_sweep; run does not, as every point of a direct sweep is a run
// of the same file and would check them all again.)
void check_sweep_section(const Scenario& scenario);

// "0007": the folder name of a point under DIR/points/.
std::string point_name(const SweepPoint& point);
// The --set assignments of one point: the user's overrides, then key=value per parameter.
std::vector<std::string> point_overrides(const SweepPlan& plan, const SweepPoint& point);

nlohmann::json plan_to_json(const SweepPlan& plan);
SweepPlan plan_from_json(const nlohmann::json& json, const std::string& label);

}  // namespace memsim
