#include "sim/report/charts/sweep_plots.h"

#include <algorithm>
#include <filesystem>
#include <limits>
#include <map>
#include <optional>
#include <stdexcept>
#include <unordered_map>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include "sim/report/text_format.h"
#include "sim/report/charts/chart_style.h"
#include "sim/report/charts/svg_chart.h"
#include "sim/report/charts/value_axis.h"
#include "sim/report/charts/value_labels.h"

namespace memsim {

namespace {

struct Metric {
    const char* key;
    const char* label;  // the y axis
    double unit_scale;
    const char* words;  // in titles
};
const Metric kMetrics[] = {{"time_ms", "iteration time (ms)", 1.0, "iteration time"},
                           {"peak_bytes", "peak memory (MiB)", 1048576.0, "peak memory"},
                           {"stall_ms", "stall time (ms)", 1.0, "stall time"}};

// The overhead each run measured against its own no-policy run (summary.json's overhead:
// what the tables print and find's conditions read), for every point that finished.
const Metric kOverhead{"overhead", "overhead (time / no-policy time)", 1.0, "overhead"};
// The peak of each point over that of its no-policy point in the sweep.
const Metric kPeakRatio{"peak_ratio", "peak / no-policy peak", 1.0, "peak ratio"};

std::string file_safe(const std::string& text) {
    std::string out;
    for (char c : text) out += (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '-') ? c : '_';
    return out;
}

std::string describe_point(const SweepPlan& plan, const PointResult& r) {
    std::string text = "point " + point_name(r.point);
    for (std::size_t i = 0; i < plan.parameters.size(); ++i)
        text += fmt::format("\n{} = {}", plan.parameters[i].key, r.point.values[i]);
    text += "\nstatus " + r.status;
    if (!r.message.empty()) text += ": " + r.message;
    return text;
}

bool has_number(const PointResult& r, const char* key) {
    return r.status == "ok" && r.summary.is_object() && r.summary.contains(key) && r.summary[key].is_number();
}

// What the plots look up per point, worked out once per sweep so that plotting is linear
// in the number of points: per parameter its axis and value labels, and per point the
// position of each of its values in the parameter's list (the first equal one).
struct PlotIndex {
    std::vector<ValueAxis> axes;
    std::vector<std::vector<std::string>> labels;
    std::vector<bool> self_named;  // labels that name their keys themselves (maps, given labels)
    std::vector<std::vector<std::size_t>> value_at;  // [result][parameter]

    PlotIndex(const SweepPlan& plan, const std::vector<PointResult>& results, const PlotOptions& options) {
        std::vector<std::unordered_map<std::string, std::size_t>> position(plan.parameters.size());
        for (std::size_t i = 0; i < plan.parameters.size(); ++i) {
            const SweepParameter& p = plan.parameters[i];
            axes.push_back(value_axis(p.values));
            labels.push_back(value_labels(p));
            self_named.push_back(!p.values.empty() && p.values.front().rfind('{', 0) == 0);
            if (i == 0 && !options.labels.empty()) self_named[0] = true;
            if (i == 0)
                for (std::size_t v = 0; v < p.values.size(); ++v)
                    if (const auto named = options.labels.find(p.values[v]); named != options.labels.end()) labels[0][v] = named->second;
            for (std::size_t v = 0; v < p.values.size(); ++v) position[i].emplace(p.values[v], v);
        }
        value_at.reserve(results.size());
        for (const PointResult& r : results) {
            std::vector<std::size_t> at(plan.parameters.size());
            for (std::size_t i = 0; i < at.size(); ++i) {
                const auto found = position[i].find(r.point.values.at(i));
                if (found == position[i].end())  // plan_from_json and plan_sweep make every value one of the list
                    throw std::logic_error(fmt::format("point {}: {} is not a value of sweep.{}", point_name(r.point),
                                                       r.point.values[i], plan.parameters[i].key));
                at[i] = found->second;
            }
            value_at.push_back(std::move(at));
        }
    }
};

// The legend name of the line a point belongs to: the values of the parameters in `keep`.
std::string series_name(const SweepPlan& plan, const PlotIndex& index, std::size_t result, const std::vector<std::size_t>& keep) {
    std::string name;
    for (std::size_t i : keep) {
        const std::string& value = index.labels[i][index.value_at[result][i]];
        // A map value's label already names its keys.
        name += fmt::format("{}{}", name.empty() ? "" : ", ",
                            index.self_named[i] ? value : short_key(plan.parameters[i].key) + "=" + value);
    }
    return name;
}

bool is_policy_key(const std::string& key) { return key == "policy" || key.rfind("policy.", 0) == 0; }

bool is_budget_key(const std::string& key) { return key.rfind("platform.memory", 0) == 0; }

// A point that ran as if there were no policy: nothing swapped, recomputed, evicted or
// waited for (a generous budget, or none).
bool ran_without_policy(const PointResult& r) {
    for (const char* key : {"bytes_written", "recomputed_ops", "evictions", "stall_ms", "time_ms", "peak_bytes"})
        if (!has_number(r, key)) return false;
    return r.summary["bytes_written"].get<double>() == 0 && r.summary["recomputed_ops"].get<double>() == 0 &&
           r.summary["evictions"].get<double>() == 0 && r.summary["stall_ms"].get<double>() == 0;
}

// The values of the parameters that are neither policy nor budget: points that share
// them share a no-policy baseline.
std::string baseline_group(const SweepPlan& plan, const SweepPoint& point) {
    std::string key;
    for (std::size_t i = 0; i < plan.parameters.size(); ++i)
        if (!is_policy_key(plan.parameters[i].key) && !is_budget_key(plan.parameters[i].key)) key += point.values[i] + "\n";
    return key;
}

// Per baseline group, the first point (in sweep order) that ran without a policy.
std::map<std::string, const PointResult*> baselines(const SweepPlan& plan, const std::vector<PointResult>& results) {
    std::map<std::string, const PointResult*> found;
    for (const PointResult& r : results)
        if (ran_without_policy(r)) found.emplace(baseline_group(plan, r.point), &r);
    return found;
}

// The x axis of a chart against parameter `param`: numbers in a readable unit, or categories.
void parameter_axis(Chart& chart, const SweepPlan& plan, const PlotIndex& index, std::size_t param) {
    const SweepParameter& p = plan.parameters[param];
    const ValueAxis& axis = index.axes[param];
    const DisplayUnit unit = display_unit(axis);
    chart.x.label = axis_label(p.key, unit);
    chart.x.log_scale = axis.log_scale;
    chart.x.categorical = !axis.numeric;
    chart.x.unit_scale = unit.scale;
    for (std::size_t i = 0; i < p.values.size(); ++i)
        chart.x.ticks.emplace_back(axis.positions[i], axis.numeric ? number_label(axis.positions[i] / unit.scale) : index.labels[param][i]);
}

// The no-policy time every finished point was measured against, when they share one.
std::optional<double> shared_no_policy_time(const std::vector<PointResult>& results) {
    std::optional<double> shared;
    for (const PointResult& r : results) {
        if (!has_number(r, "no_policy_time_ms")) continue;
        const double t = r.summary["no_policy_time_ms"].get<double>();
        if (shared && *shared != t) return std::nullopt;
        shared = t;
    }
    return shared;
}

// `plotted` names what is drawn, for the legend of a chart with one line: the y axis's
// label, so the legend reads as the axis does ("iteration time (ms)", not time_ms).
Chart metric_chart(const SweepPlan& plan, const std::vector<PointResult>& results, const PlotIndex& index,
                   const Metric& metric, std::size_t param, const PlotOptions& options, const std::string& plotted,
                   const std::map<std::string, const PointResult*>* base = nullptr) {
    const SweepParameter& p = plan.parameters[param];
    const ValueAxis& axis = index.axes[param];
    Chart chart;
    chart.title = fmt::format("{}: {} vs {}", plan.scenario_name, metric.words, key_label(p.key));
    parameter_axis(chart, plan, index, param);
    chart.y.label = metric.label;
    chart.y.unit_scale = metric.unit_scale;
    if (base) {
        chart.reference_y = 1.0;
        chart.reference_label = "no policy (ratio 1)";
    } else if (std::string(metric.key) == "time_ms") {
        if (const auto no_policy = shared_no_policy_time(results)) {
            chart.reference_y = *no_policy;
            chart.reference_label = fmt::format("no memory policy: {} ms", number_label(*no_policy));
        }
    }

    std::vector<std::size_t> others;
    for (std::size_t i = 0; i < plan.parameters.size(); ++i)
        if (i != param) others.push_back(i);
    std::map<std::string, std::size_t> series_index;
    for (std::size_t ri = 0; ri < results.size(); ++ri) {
        const PointResult& r = results[ri];
        const double x = axis.positions[index.value_at[ri][param]];
        if (!has_number(r, metric.key)) {
            chart.failures.push_back({x, 0, describe_point(plan, r)});
            continue;
        }
        double y = r.summary[metric.key].get<double>();
        std::string tip = describe_point(plan, r) + fmt::format("\n{} = {}", metric.key, r.summary[metric.key].dump());
        if (base) {
            auto b = base->find(baseline_group(plan, r.point));
            if (b == base->end() || b->second->summary[metric.key].get<double>() <= 0) continue;  // nothing to compare with
            y /= b->second->summary[metric.key].get<double>();
            tip += fmt::format("\nratio to the no-policy point {} = {:.4f}", point_name(b->second->point), y);
        }
        const std::string name = others.empty() ? plotted : series_name(plan, index, ri, others);
        auto [it, added] = series_index.emplace(name, chart.series.size());
        // Categories have no order between them: markers only, no line joining them.
        if (added) chart.series.push_back({name, {}, axis.numeric});
        chart.series[it->second].points.push_back({x, y, tip});
        // The optimal planner's proven bound where it is not proven optimal (docs/optimal.md):
        // a series of its own under the plan's.
        if (std::string(metric.key) == "time_ms" && r.summary.contains("details")) {
            const auto& d = r.summary["details"];
            const double time = r.summary[metric.key].get<double>();
            if (time > 0 && d.contains("optimal_bound_ms") && d.contains("optimal_proven") &&
                d["optimal_proven"].get<double>() < 0.5) {
                const double bound = d["optimal_bound_ms"].get<double>() * (y / time);
                auto [b, new_bound] = series_index.emplace(name + " (bound)", chart.series.size());
                if (new_bound) chart.series.push_back({name + " (bound)", {}, axis.numeric});
                chart.series[b->second].points.push_back(
                    {x, bound, describe_point(plan, r) + fmt::format("\nno plan of the optimal planner's class is faster "
                                                                     "than {:.3f} ms", d["optimal_bound_ms"].get<double>())});
            }
        }
        if (param == 0 && options.marked_value && r.point.values[0] == *options.marked_value && !chart.marked) {
            chart.marked = ChartPoint{x, y, tip};
            chart.marked_label = options.marked_label;
        }
    }
    return chart;
}

Chart pareto_chart(const SweepPlan& plan, const std::vector<PointResult>& results, const PlotIndex& index,
                   const PlotOptions& options) {
    Chart chart;
    chart.title = plan.scenario_name + ": iteration time vs peak memory (Pareto front dashed)";
    chart.merge_identical = true;
    chart.x.label = "peak memory (MiB)";
    chart.x.unit_scale = 1048576.0;
    // From 0: a 1% difference in peak must not look like a trade-off.
    chart.x.include_zero = true;
    chart.y.label = "iteration time (ms)";
    std::vector<std::size_t> policy_params;
    for (std::size_t i = 0; i < plan.parameters.size(); ++i)
        if (is_policy_key(plan.parameters[i].key)) policy_params.push_back(i);
    std::map<std::string, std::size_t> series_index;
    std::vector<ChartPoint> all;
    for (std::size_t ri = 0; ri < results.size(); ++ri) {
        const PointResult& r = results[ri];
        if (!has_number(r, "time_ms") || !has_number(r, "peak_bytes")) {
            // No time to place it by: a cross on the bottom edge at its peak when known, else at the right edge.
            const bool peak = r.summary.is_object() && r.summary.contains("peak_bytes") && r.summary["peak_bytes"].is_number() &&
                              r.summary["peak_bytes"].get<double>() > 0;
            chart.failures.push_back({peak ? r.summary["peak_bytes"].get<double>() : std::numeric_limits<double>::quiet_NaN(), 0,
                                      describe_point(plan, r)});
            continue;
        }
        const ChartPoint point{r.summary["peak_bytes"].get<double>(), r.summary["time_ms"].get<double>(),
                               describe_point(plan, r) + fmt::format("\ntime_ms = {}\npeak_bytes = {}",
                                                                     r.summary["time_ms"].dump(),
                                                                     r.summary["peak_bytes"].dump())};
        const std::string name = series_name(plan, index, ri, policy_params);
        auto [it, added] = series_index.emplace(name, chart.series.size());
        if (added) chart.series.push_back({name, {}, false});
        chart.series[it->second].points.push_back(point);
        all.push_back(point);
        if (options.marked_value && !plan.parameters.empty() && r.point.values[0] == *options.marked_value && !chart.marked) {
            chart.marked = point;
            chart.marked_label = options.marked_label;
        }
    }
    // Non-dominated: no other point is both smaller and faster.
    std::stable_sort(all.begin(), all.end(), [](const ChartPoint& a, const ChartPoint& b) {
        return a.x < b.x || (a.x == b.x && a.y < b.y);
    });
    for (const ChartPoint& p : all)
        if (chart.front.empty() || p.y < chart.front.back().y) chart.front.push_back(p);
    return chart;
}

}  // namespace

std::vector<std::string> write_sweep_plots(const SweepPlan& plan, const std::vector<PointResult>& results,
                                           const std::string& dir, const PlotOptions& options) {
    std::vector<std::string> written;
    const std::filesystem::path out(dir);
    const PlotIndex index(plan, results, options);
    for (const Metric& metric : kMetrics)
        for (std::size_t param = 0; param < plan.parameters.size(); ++param) {
            const std::string name =
                fmt::format("plot_{}_vs_{}.svg", metric.key, file_safe(plan.parameters[param].key));
            write_text_file((out / name).string(),
                            render_svg(metric_chart(plan, results, index, metric, param, options, metric.label)));
            written.push_back(name);
        }
    // Overhead, when some point has one; the peak ratio to the no-policy point, when the
    // sweep has one.
    const bool any_overhead = std::any_of(results.begin(), results.end(), [](const PointResult& r) { return has_number(r, "overhead"); });
    const std::map<std::string, const PointResult*> base = baselines(plan, results);
    for (const bool peak : {false, true}) {
        if (peak ? base.empty() : !any_overhead) continue;
        const Metric& ratio = peak ? kPeakRatio : kOverhead;
        for (std::size_t param = 0; param < plan.parameters.size(); ++param) {
            const std::string& key = plan.parameters[param].key;
            const std::string name = fmt::format("plot_{}_vs_{}.svg", ratio.key, file_safe(key));
            Chart chart = peak ? metric_chart(plan, results, index, kMetrics[1], param, options, ratio.label, &base)
                               : metric_chart(plan, results, index, kOverhead, param, options, ratio.label);
            chart.reference_y = 1.0;
            chart.reference_label = "no policy (ratio 1)";
            chart.title = fmt::format("{}: {} vs {}", plan.scenario_name, ratio.words, key_label(key));
            chart.y.label = ratio.label;
            chart.y.unit_scale = 1.0;
            // A policy that fills its budget has its peak at the budget: the points lie
            // on y = x, which the line says rather than leaving it to be discovered.
            if (std::string(ratio.key) == "peak_ratio" && key == "platform.memory.budget_ratio")
                chart.identity_label = "y = x: the peak at the budget (a point on it fills its budget; below it, "
                                       "the policy needs less)";
            write_text_file((out / name).string(), render_svg(chart));
            written.push_back(name);
        }
    }
    const bool policy_swept = std::any_of(plan.parameters.begin(), plan.parameters.end(),
                                          [](const SweepParameter& p) { return is_policy_key(p.key); });
    if (policy_swept) {
        write_text_file((out / "plot_pareto_time_vs_peak.svg").string(),
                        render_svg(pareto_chart(plan, results, index, options)));
        written.push_back("plot_pareto_time_vs_peak.svg");
    }
    return written;
}

}  // namespace memsim
