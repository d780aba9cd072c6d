// `memsim find`: runs the search of sim/app/find/search.h on a scenario, each round of points
// as a sweep (sim/app/sweep/sweep_runner.h: forked after the workload is loaded), into one
// sweep folder that holds every point evaluated (results.csv and plots as `memsim sweep`
// writes them, the points in order of value; points/NNNN numbered in order of evaluation).
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "sim/app/find/condition.h"
#include "sim/app/find/search.h"
#include "sim/app/sweep/sweep_runner.h"

namespace memsim {

enum class FindMode { Until, Maximize, Minimize };

struct FindRequest {
    std::string scenario_file;
    std::vector<std::string> overrides;  // the user's --set, applied to every point
    std::string key;                     // the dotted scenario key varied
    std::string range;                   // "A..B"
    FindMode mode = FindMode::Until;
    Condition condition;
    double tolerance = 0.01;
    int grid = 9;
    std::string dir;                     // "" = <scenario output.dir>/find
    SweepRunOptions run;
};

// One point evaluated, as printed and tested.
struct FoundPoint {
    std::string value;  // as run (--set KEY=value)
    double number = 0;  // in base units (B/s, B, ms or plain)
    bool holds = false;
    std::string status;
    nlohmann::json summary;
};

struct FindOutcome {
    SearchAxis axis;
    SearchResult search;
    std::vector<FoundPoint> points;  // by value
    std::string dir;
    std::vector<std::string> files;  // results.csv and plots
    std::string report;              // the text `memsim find` prints
};

// The range as a search axis: both ends the same kind of quantity (sim/report/charts/value_axis.h);
// integer when both are plain integers. Throws InputError naming --range.
SearchAxis parse_find_range(const std::string& range, std::string& unit);
// A value as it is run: integers as integers, rates/sizes/times with units, 6 significant digits.
std::string find_value_text(double value, const std::string& unit, bool integer);

FindOutcome run_find(const FindRequest& request, std::ostream& progress);

}  // namespace memsim
