// What each point of a sweep answered, read back from its folder DIR/points/NNNN/:
// summary.json when the run wrote one, else an "error" row whose message says so and
// quotes the last line the run printed (log.txt). The direct sweep and `memsim merge` both build
// results.csv through here, so the two give the same bytes.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/scenario/sweep_plan.h"

namespace memsim {

struct PointResult {
    SweepPoint point;
    std::string status;    // one of run_statuses() (sim/engine/run_status.h)
    std::string message;
    nlohmann::json summary;  // the summary.json object, or null when the run wrote none
};

// The line a point's log.txt ends with when its process was killed by a signal (the
// sweep's process pool writes it), followed by "killed by signal 11 (SIGSEGV)". Such a
// point's row says so, not that its folder is marked incomplete.
inline constexpr const char* kKilledPrefix = "memsim: the point's process was ";

std::string point_dir(const std::string& sweep_dir, const SweepPoint& point);
PointResult read_point_result(const std::string& sweep_dir, const SweepPoint& point);
std::vector<PointResult> read_point_results(const std::string& sweep_dir, const SweepPlan& plan);

// One row per point: point, the swept keys, status, message, then every summary field
// (nested ones as dotted names), the main metrics first, the rest sorted by name.
std::string results_csv(const SweepPlan& plan, const std::vector<PointResult>& results);

}  // namespace memsim
