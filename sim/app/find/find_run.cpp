#include "sim/app/find/find_run.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>

#include <fmt/format.h>

#include "models/workload/input_error.h"
#include "sim/app/find/find_report.h"
#include "sim/report/text_format.h"
#include "sim/scenario/scenario.h"
#include "sim/report/point_results.h"
#include "sim/report/charts/value_axis.h"

namespace memsim {

namespace fs = std::filesystem;

namespace {

bool plain_integer(const std::string& text) {
    return !text.empty() && text.find_first_not_of("0123456789") == std::string::npos && text.size() < 16;
}

std::string trim(const std::string& s) {
    const std::size_t b = s.find_first_not_of(" \t");
    if (b == std::string::npos) return "";
    return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

double parse_value(const std::string& text) {
    const ValueAxis axis = value_axis({text});
    return axis.positions.at(0);
}

std::string default_dir(const Scenario& base) { return (fs::path(base.output.dir) / "find").string(); }

}  // namespace

SearchAxis parse_find_range(const std::string& range, std::string& unit) {
    const std::size_t dots = range.find("..");
    const auto bad = [&](const std::string& why) {
        return InputError(fmt::format("--range: '{}': {} (write A..B, e.g. 10MB/s..10GB/s or 1..64)", range, why));
    };
    if (dots == std::string::npos) throw bad("no '..' between the ends");
    const std::string a = trim(range.substr(0, dots)), b = trim(range.substr(dots + 2));
    if (a.empty() || b.empty()) throw bad("an end is missing");
    const ValueAxis axis = value_axis({a, b});
    if (!axis.numeric) throw bad("the ends are not numbers, nor quantities of the same kind with units");
    SearchAxis out;
    out.lo = axis.positions[0];
    out.hi = axis.positions[1];
    if (!(out.lo < out.hi)) throw bad("the first end must be below the second");
    out.integer = axis.unit.empty() && plain_integer(a) && plain_integer(b);
    out.log = axis.log_scale;
    unit = axis.unit;
    return out;
}

std::string find_value_text(double value, const std::string& unit, bool integer) {
    if (integer) return fmt::format("{}", static_cast<long long>(std::llround(value)));
    if (unit == "B") return fmt::format("{}B", static_cast<unsigned long long>(std::llround(value)));
    if (unit == "ms") return fmt::format("{:.6g}ms", value);
    if (unit == "B/s") {
        for (const auto& [scale, prefix] : {std::pair{1e9, "G"}, {1e6, "M"}, {1e3, "K"}})
            if (value >= scale) return fmt::format("{:.6g}{}B/s", value / scale, prefix);
        return fmt::format("{:.6g}B/s", value);
    }
    return fmt::format("{:.6g}", value);
}

FindOutcome run_find(const FindRequest& request, std::ostream& progress) {
    std::string unit;
    const SearchAxis axis = parse_find_range(request.range, unit);
    // Both ends must make a valid scenario before anything runs.
    const Scenario base = load_scenario(request.scenario_file, request.overrides);
    for (const double end : {axis.lo, axis.hi}) {
        std::vector<std::string> sets = request.overrides;
        sets.push_back(request.key + "=" + find_value_text(end, unit, axis.integer));
        load_scenario(request.scenario_file, sets);
    }
    FindOutcome outcome;
    outcome.axis = axis;
    outcome.dir = request.dir.empty() ? default_dir(base) : request.dir;

    SweepPlan plan;
    plan.scenario_file = fs::absolute(request.scenario_file).lexically_normal().string();
    plan.scenario_name = base.name;
    plan.overrides = request.overrides;
    plan.parameters = {{request.key, {}}};
    plan.outputs = sweep_point_outputs(base.output);
    plan.default_dir = outcome.dir;

    std::map<double, FoundPoint> found;
    std::map<double, SweepPoint> swept;
    std::size_t errors = 0;
    std::string first_error;
    SearchOptions options;
    options.grid = request.grid;
    options.tolerance = request.tolerance;
    options.per_round = std::max(1, request.run.jobs);
    options.round = [&](double v) { return parse_value(find_value_text(v, unit, axis.integer)); };
    const EvaluateRound evaluate = [&](const std::vector<double>& values) {
        SweepPlan round = plan;
        for (const double v : values) {
            SweepPoint point{static_cast<int>(swept.size() + round.points.size()) + 1, {find_value_text(v, unit, axis.integer)}};
            round.parameters[0].values.push_back(point.values[0]);
            round.points.push_back(point);
        }
        // The first round removes what earlier runs left (their points would pass for this
        // search's); later ones keep the earlier rounds' points.
        SweepRunOptions run = request.run;
        run.later_round = !swept.empty();
        run_sweep(round, outcome.dir, run, progress);
        std::vector<bool> holds;
        for (std::size_t i = 0; i < values.size(); ++i) {
            const PointResult r = read_point_result(outcome.dir, round.points[i]);
            FoundPoint p{round.points[i].values[0], values[i], false, r.status, r.summary};
            if (r.status == "error") {
                if (errors++ == 0) first_error = fmt::format("{}={}: {}", request.key, p.value, r.message);
            } else {
                p.holds = request.condition.holds(r.summary);
            }
            holds.push_back(p.holds);
            found[values[i]] = p;
            swept[values[i]] = round.points[i];
        }
        return holds;
    };
    const SearchGoal goal = request.mode == FindMode::Maximize ? SearchGoal::Largest : SearchGoal::Smallest;
    outcome.search = search_range(axis, goal, options, evaluate);
    if (errors == found.size())
        throw InputError(fmt::format("every point failed to run; the first: {}", first_error));

    // The whole search as one sweep folder, its points in order of value.
    plan.points.clear();
    for (const auto& [v, point] : swept) {
        plan.parameters[0].values.push_back(point.values[0]);
        plan.points.push_back(point);
    }
    for (const auto& [v, p] : found) outcome.points.push_back(p);
    write_text_file((fs::path(outcome.dir) / "sweep.json").string(), plan_to_json(plan).dump(2) + "\n");
    // The plots ring the answer (sim/report/charts/sweep_plots.h).
    PlotOptions plots;
    for (const FoundPoint& p : outcome.points)
        if (outcome.search.answer && p.number == *outcome.search.answer) {
            plots.marked_value = p.value;
            plots.marked_label = fmt::format("the answer: {} = {}", request.key, p.value);
        }
    const SweepTally tally = merge_sweep(outcome.dir, plots);
    for (const std::string& file : tally.files) outcome.files.push_back((fs::path(outcome.dir) / file).string());
    outcome.report = find_report(request, outcome, errors, first_error);
    return outcome;
}

}  // namespace memsim
