#include "app/sweep/point_results.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include <fmt/format.h>

#include "models/io/input_file.h"
#include "report/text_format.h"

namespace memsim {

namespace fs = std::filesystem;

namespace {

// Fields that are not results: the scenario text is in the point's folder.
const std::set<std::string> kNotColumns = {"scenario_resolved", "status", "message"};
const std::vector<std::string> kLeadingColumns = {"time_ms",        "overhead",       "peak_bytes",
                                                  "stall_ms",       "live_peak_bytes", "compute_ms",
                                                  "recompute_ms",   "bytes_written",  "bytes_read",
                                                  "swap_selected_tensors", "recomputed_ops", "evictions"};

std::string last_line_of(const fs::path& path) {
    std::ifstream in(path);
    std::string line, last;
    while (std::getline(in, line))
        if (line.find_first_not_of(" \t\r") != std::string::npos) last = line;
    return last;
}

void flatten(const nlohmann::json& value, const std::string& prefix, std::map<std::string, std::string>& cells) {
    if (value.is_object()) {
        for (const auto& [key, sub] : value.items()) flatten(sub, prefix.empty() ? key : prefix + "." + key, cells);
        return;
    }
    if (value.is_string()) cells[prefix] = value.get<std::string>();
    else if (value.is_null()) cells[prefix] = "";
    else cells[prefix] = value.dump();  // numbers as summary.json wrote them (shortest round-trip)
}

std::map<std::string, std::string> summary_cells(const nlohmann::json& summary) {
    std::map<std::string, std::string> cells;
    if (!summary.is_object()) return cells;
    for (const auto& [key, value] : summary.items())
        if (!kNotColumns.count(key)) flatten(value, key, cells);
    return cells;
}

// A summary memsim wrote is an object of fields a few levels deep with string status and
// message; anything else (a directory, deep nesting, another type) is reported, not trusted.
std::optional<std::string> read_summary(const fs::path& path, nlohmann::json& summary) {
    static constexpr int kMaxDepth = 32;
    if (const auto problem = input_file_problem(path.string())) return problem;
    std::ifstream in(path, std::ios::binary);
    try {
        summary = nlohmann::json::parse(in, [](int depth, nlohmann::json::parse_event_t, nlohmann::json&) {
            if (depth > kMaxDepth) throw std::runtime_error(fmt::format("nested deeper than {} levels", kMaxDepth));
            return true;
        });
    } catch (const std::exception& e) {
        return std::string(e.what());
    }
    if (!summary.is_object()) return fmt::format("not a JSON object but {}", summary.type_name());
    for (const char* key : {"status", "message"}) {
        if (!summary.contains(key)) summary[key] = key == std::string("status") ? "error" : "";
        if (!summary[key].is_string()) return fmt::format("field {} is {}, not a string", key, summary[key].dump());
    }
    return std::nullopt;
}

}  // namespace

std::string point_dir(const std::string& sweep_dir, const SweepPoint& point) {
    return (fs::path(sweep_dir) / "points" / point_name(point)).string();
}

PointResult read_point_result(const std::string& sweep_dir, const SweepPoint& point) {
    PointResult result{point, "error", "", nullptr};
    const fs::path dir = point_dir(sweep_dir, point);
    const fs::path summary_path = dir / "summary.json";
    if (fs::exists(summary_path) || fs::is_symlink(summary_path)) {
        if (const auto problem = read_summary(summary_path, result.summary)) {
            result.summary = nullptr;
            result.message = fmt::format("{}: unreadable ({})", summary_path.string(), *problem);
            return result;
        }
        result.status = result.summary["status"].get<std::string>();
        result.message = result.summary["message"].get<std::string>();
        return result;
    }
    const std::string said = last_line_of(dir / "log.txt");
    result.message = said.empty() ? fmt::format("no summary.json in {} (the job did not run, or failed silently)", dir.string())
                                  : fmt::format("no summary.json in {}; log.txt ends: {}", dir.string(), said);
    return result;
}

std::vector<PointResult> read_point_results(const std::string& sweep_dir, const SweepPlan& plan) {
    std::vector<PointResult> results;
    for (const SweepPoint& point : plan.points) results.push_back(read_point_result(sweep_dir, point));
    return results;
}

std::string results_csv(const SweepPlan& plan, const std::vector<PointResult>& results) {
    std::vector<std::map<std::string, std::string>> rows;
    std::set<std::string> seen;
    for (const PointResult& r : results) {
        rows.push_back(summary_cells(r.summary));
        for (const auto& [key, value] : rows.back()) seen.insert(key);
    }
    std::vector<std::string> columns;
    for (const std::string& key : kLeadingColumns)
        if (seen.erase(key)) columns.push_back(key);
    columns.insert(columns.end(), seen.begin(), seen.end());

    std::string out = "point";
    for (const SweepParameter& p : plan.parameters) out += "," + csv_field(p.key);
    out += ",status,message";
    for (const std::string& c : columns) out += "," + csv_field(c);
    out += "\n";
    for (std::size_t i = 0; i < results.size(); ++i) {
        const PointResult& r = results[i];
        out += point_name(r.point);
        for (const std::string& v : r.point.values) out += "," + csv_field(v);
        out += "," + csv_field(r.status) + "," + csv_field(r.message);
        for (const std::string& c : columns) {
            auto it = rows[i].find(c);
            out += "," + (it == rows[i].end() ? std::string() : csv_field(it->second));
        }
        out += "\n";
    }
    return out;
}

}  // namespace memsim
