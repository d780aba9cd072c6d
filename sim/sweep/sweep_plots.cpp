#include "sim/sweep/sweep_plots.h"

#include <algorithm>
#include <filesystem>
#include <limits>
#include <map>
#include <stdexcept>
#include <unordered_map>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include "sim/output/text_format.h"
#include "sim/scenario/yaml_control.h"
#include "sim/sweep/svg_chart.h"
#include "sim/sweep/value_axis.h"

namespace memsim {

namespace {

struct Metric {
    const char* key;
    const char* label;
    double unit_scale;
};
const Metric kMetrics[] = {{"time_ms", "iteration time (ms)", 1.0},
                           {"peak_bytes", "peak memory (MiB)", 1048576.0},
                           {"stall_ms", "stall time (ms)", 1.0}};

// Ratio plots: the metric of each point over that of its no-policy point.
const Metric kRatios[] = {{"overhead", "overhead (time / no-policy time)", 1.0},
                          {"peak_ratio", "peak / no-policy peak", 1.0}};
const Metric* ratio_of(const Metric& ratio) { return std::string(ratio.key) == "overhead" ? &kMetrics[0] : &kMetrics[1]; }

std::string short_key(const std::string& dotted) { return dotted.substr(dotted.rfind('.') + 1); }

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

void flatten_leaves(const YAML::Node& node, const std::string& path, std::vector<std::pair<std::string, std::string>>& out) {
    if (node.IsMap()) {
        for (const auto& entry : node) {
            const std::string key = entry.first.as<std::string>();
            flatten_leaves(entry.second, path.empty() ? key : path + "." + key, out);
        }
    } else if (node.IsScalar()) {
        out.emplace_back(path, node.Scalar());
    } else {
        YAML::Emitter flow;
        flow << YAML::Flow << node;
        out.emplace_back(path, flow.c_str());
    }
}

// How a parameter's values are named on ticks and in legends: as written, except that
// values that are maps ({allocator: os, recompute: {heuristic: dtr}}) show only the
// leaves that differ between them, as "heuristic=dtr".
std::vector<std::string> value_labels(const SweepParameter& p) {
    std::vector<std::vector<std::pair<std::string, std::string>>> leaves;
    try {
        for (const std::string& v : p.values) {
            if (first_yaml_control_byte(v)) return p.values;  // yaml-cpp may not end on it
            const YAML::Node node = YAML::Load(v);
            if (!node.IsMap()) return p.values;
            leaves.emplace_back();
            flatten_leaves(node, "", leaves.back());
        }
    } catch (const YAML::Exception&) {
        return p.values;
    }
    std::vector<std::string> labels;
    for (const auto& mine : leaves) {
        std::string label;
        for (const auto& leaf : mine) {
            const bool everywhere = std::all_of(leaves.begin(), leaves.end(), [&](const auto& other) {
                return std::find(other.begin(), other.end(), leaf) != other.end();
            });
            if (!everywhere) label += fmt::format("{}{}={}", label.empty() ? "" : " ", short_key(leaf.first), leaf.second);
        }
        labels.push_back(label.empty() ? "(same)" : label);
    }
    return labels;
}

// What the plots look up per point, worked out once per sweep so that plotting is linear
// in the number of points: per parameter its axis and value labels, and per point the
// position of each of its values in the parameter's list (the first equal one).
struct PlotIndex {
    std::vector<ValueAxis> axes;
    std::vector<std::vector<std::string>> labels;
    std::vector<std::vector<std::size_t>> value_at;  // [result][parameter]

    PlotIndex(const SweepPlan& plan, const std::vector<PointResult>& results) {
        std::vector<std::unordered_map<std::string, std::size_t>> position(plan.parameters.size());
        for (std::size_t i = 0; i < plan.parameters.size(); ++i) {
            const SweepParameter& p = plan.parameters[i];
            axes.push_back(value_axis(p.values));
            labels.push_back(value_labels(p));
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
std::string series_name(const SweepPlan& plan, const PlotIndex& index, std::size_t result, const SweepPoint& point,
                        const std::vector<std::size_t>& keep) {
    std::string name;
    for (std::size_t i : keep) {
        const std::string& value = index.labels[i][index.value_at[result][i]];
        // A map value's label already names its keys.
        name += fmt::format("{}{}", name.empty() ? "" : ", ",
                            value == point.values[i] ? short_key(plan.parameters[i].key) + "=" + value : value);
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

Chart metric_chart(const SweepPlan& plan, const std::vector<PointResult>& results, const PlotIndex& index,
                   const Metric& metric, std::size_t param, const std::map<std::string, const PointResult*>* base = nullptr) {
    const SweepParameter& p = plan.parameters[param];
    const ValueAxis& axis = index.axes[param];
    Chart chart;
    chart.title = fmt::format("{}: {} vs {}", plan.scenario_name, metric.key, p.key);
    // The ticks are the values as the sweep writes them ("23.4MB/s"), so they carry their own unit.
    chart.x.label = p.key;
    chart.x.log_scale = axis.log_scale;
    chart.x.categorical = !axis.numeric;
    const std::vector<std::string>& labels = index.labels[param];
    for (std::size_t i = 0; i < p.values.size(); ++i) chart.x.ticks.emplace_back(axis.positions[i], labels[i]);
    chart.y.label = metric.label;
    chart.y.unit_scale = metric.unit_scale;
    if (base) {
        chart.reference_y = 1.0;
        chart.reference_label = "no policy (ratio 1)";
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
        const std::string name = others.empty() ? metric.key : series_name(plan, index, ri, r.point, others);
        auto [it, added] = series_index.emplace(name, chart.series.size());
        // Categories have no order between them: markers only, no line joining them.
        if (added) chart.series.push_back({name, {}, axis.numeric});
        chart.series[it->second].points.push_back({x, y, tip});
    }
    return chart;
}

Chart pareto_chart(const SweepPlan& plan, const std::vector<PointResult>& results, const PlotIndex& index) {
    Chart chart;
    chart.title = plan.scenario_name + ": time vs peak memory (Pareto front dashed)";
    chart.merge_identical = true;
    chart.x.label = "peak memory (MiB)";
    chart.x.unit_scale = 1048576.0;
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
        const std::string name = series_name(plan, index, ri, r.point, policy_params);
        auto [it, added] = series_index.emplace(name, chart.series.size());
        if (added) chart.series.push_back({name, {}, false});
        chart.series[it->second].points.push_back(point);
        all.push_back(point);
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
                                           const std::string& dir) {
    std::vector<std::string> written;
    const std::filesystem::path out(dir);
    const PlotIndex index(plan, results);
    for (const Metric& metric : kMetrics)
        for (std::size_t param = 0; param < plan.parameters.size(); ++param) {
            const std::string name =
                fmt::format("plot_{}_vs_{}.svg", metric.key, file_safe(plan.parameters[param].key));
            write_text_file((out / name).string(), render_svg(metric_chart(plan, results, index, metric, param)));
            written.push_back(name);
        }
    // Ratios to the no-policy run, when the sweep has one.
    const std::map<std::string, const PointResult*> base = baselines(plan, results);
    if (!base.empty())
        for (const Metric& ratio : kRatios)
            for (std::size_t param = 0; param < plan.parameters.size(); ++param) {
                const std::string name = fmt::format("plot_{}_vs_{}.svg", ratio.key, file_safe(plan.parameters[param].key));
                Chart chart = metric_chart(plan, results, index, *ratio_of(ratio), param, &base);
                chart.title = fmt::format("{}: {} vs {}", plan.scenario_name, ratio.key, plan.parameters[param].key);
                chart.y.label = ratio.label;
                chart.y.unit_scale = 1.0;
                write_text_file((out / name).string(), render_svg(chart));
                written.push_back(name);
            }
    const bool policy_swept = std::any_of(plan.parameters.begin(), plan.parameters.end(),
                                          [](const SweepParameter& p) { return is_policy_key(p.key); });
    if (policy_swept) {
        write_text_file((out / "plot_pareto_time_vs_peak.svg").string(), render_svg(pareto_chart(plan, results, index)));
        written.push_back("plot_pareto_time_vs_peak.svg");
    }
    return written;
}

}  // namespace memsim
