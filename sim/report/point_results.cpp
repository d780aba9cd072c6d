#include "sim/report/point_results.h"

#include <sys/stat.h>

#include <cerrno>
#include <limits>

#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include <fmt/format.h>

#include "models/io/input_file.h"
#include "sim/report/text_format.h"
#include "models/io/json_input.h"
#include "models/workload/input_error.h"
#include "sim/report/output_folder.h"
#include "sim/engine/run_status.h"
#include "sim/engine/summary.h"

namespace memsim {

namespace fs = std::filesystem;

namespace {

// Fields that are not results: the scenario text is in the point's folder.
const std::set<std::string> kNotColumns = {"scenario_resolved", "status", "message"};
const std::vector<std::string> kLeadingColumns = {"time_ms",        "overhead",       "peak_bytes",
                                                  "stall_ms",       "live_peak_bytes", "compute_ms",
                                                  "recompute_ms",   "bytes_written",  "bytes_read",
                                                  "swap_selected_tensors", "recomputed_ops", "evictions"};

// The last line a point's run printed (its log.txt, of any size: only the end is read),
// made safe to quote in results.csv and the plots: at most kMaxQuoted characters, control
// bytes and bytes that are not UTF-8 shown as '?'. Empty when there is no log.
constexpr std::size_t kMaxQuoted = 300;

std::string printable(std::string_view text) {
    std::string out;
    std::size_t i = 0;
    while (i < text.size() && out.size() < kMaxQuoted) {
        const auto c = static_cast<unsigned char>(text[i]);
        std::size_t len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
        bool ok = len > 0 && i + len <= text.size();
        for (std::size_t k = 1; ok && k < len; ++k) ok = (static_cast<unsigned char>(text[i + k]) & 0xC0) == 0x80;
        if (len == 1 && (c < 0x20 || c == 0x7F) && c != '\t') ok = false;
        if (!ok) {
            out += '?';
            ++i;
            continue;
        }
        out.append(text.substr(i, len));
        i += len;
    }
    if (i < text.size()) out += "...";
    return out;
}

std::string last_line_of(const fs::path& path) {
    struct stat info {};
    if (::lstat(path.c_str(), &info) != 0 && errno == ENOENT) return "";
    std::string tail;
    try {
        tail = InputFile(path.string(), "the point's log", std::numeric_limits<std::uint64_t>::max()).read_tail(64 * 1024);
    } catch (const InputError& e) {
        return printable(fmt::format("(unreadable: {})", e.what()));
    }
    std::size_t end = tail.size();
    while (end > 0) {
        const std::size_t begin = tail.rfind('\n', end - 1);
        const std::size_t from = begin == std::string::npos ? 0 : begin + 1;
        const std::string_view line = std::string_view(tail).substr(from, end - from);
        if (line.find_first_not_of(" \t\r") != std::string_view::npos) return printable(line.substr(0, line.find_last_not_of(" \t\r") + 1));
        if (begin == std::string::npos) break;
        end = begin;
    }
    return "";
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

// A summary memsim wrote is checked like any input: an object a few levels deep, each
// key once, string status (one memsim writes) and message, and every field memsim writes
// of the type and sign it writes (a byte count a non-negative integer, a time a number
// >= 0): anything else (a directory, a FIFO, deep nesting, a hand-edited -5) is reported,
// not copied into results.csv and the plots.
std::optional<std::string> check_summary(const nlohmann::json& summary) {
    if (!summary.is_object()) return fmt::format("not a JSON object but {}", summary.type_name());
    static const nlohmann::json schema = [] {
        nlohmann::json j = to_json(Summary{});
        j["overhead"] = nullptr;  // null when the run did not finish
        j["stopped_at_ms"] = 0.0;
        return j;
    }();
    for (const char* key : {"status", "message"})
        if (summary.contains(key) && !summary[key].is_string())
            return fmt::format("field {} is {}, not a string", key, summary[key].dump().substr(0, 80));
    const std::string status = summary.value("status", std::string("error"));
    if (!find_run_status(status))
        return fmt::format("status \"{}\" is none of {}", printable(status), run_status_names());
    for (const auto& [key, value] : summary.items()) {
        const auto expected = schema.find(key);
        if (expected == schema.end() || key == "status" || key == "message") continue;
        const auto bad = [&, k = key, &v = value](const char* what) {
            return std::optional<std::string>(fmt::format("field {} is {}, not {}", k, v.dump().substr(0, 80), what));
        };
        switch (expected->type()) {
            case nlohmann::json::value_t::number_unsigned:
                if (!value.is_number_unsigned()) return bad("a non-negative integer");
                break;
            case nlohmann::json::value_t::number_integer:
                if (!value.is_number_integer() || value.get<long long>() < 0) return bad("a non-negative integer");
                break;
            case nlohmann::json::value_t::number_float:
                if (!value.is_number() || !(value.get<double>() >= 0)) return bad("a number >= 0");
                break;
            case nlohmann::json::value_t::null:  // an optional number (budget_bytes, budget_ratio, ...)
                if (!value.is_null() && (!value.is_number() || !(value.get<double>() >= 0))) return bad("null or a number >= 0");
                break;
            case nlohmann::json::value_t::string:
                if (!value.is_string()) return bad("a string");
                break;
            case nlohmann::json::value_t::array:
                if (!value.is_array() || !std::all_of(value.begin(), value.end(), [](const auto& e) { return e.is_string(); }))
                    return bad("a list of strings");
                break;
            case nlohmann::json::value_t::object:
                if (!value.is_object() || !std::all_of(value.begin(), value.end(), [](const auto& e) { return e.is_number(); }))
                    return bad("a map of numbers");
                break;
            default: break;
        }
    }
    return std::nullopt;
}

std::optional<std::string> read_summary(const fs::path& path, nlohmann::json& summary) {
    static constexpr int kMaxDepth = 32;
    try {
        summary = parse_json_input(read_input_file(path.string(), "the point's summary", kMaxOwnOutputBytes), path.string(),
                                   kMaxDepth);
    } catch (const InputError& e) {
        // The reason alone: the row's message names the file already.
        std::string reason = e.what();
        const std::string prefix = path.string() + ": ";
        if (reason.rfind(prefix, 0) == 0) reason.erase(0, prefix.size());
        return reason;
    }
    if (auto problem = check_summary(summary)) return problem;
    for (const char* key : {"status", "message"})
        if (!summary.contains(key)) summary[key] = key == std::string("status") ? "error" : "";
    return std::nullopt;
}

}  // namespace

std::string point_dir(const std::string& sweep_dir, const SweepPoint& point) {
    return (fs::path(sweep_dir) / "points" / point_name(point)).string();
}

PointResult read_point_result(const std::string& sweep_dir, const SweepPoint& point) {
    PointResult result{point, "error", "", nullptr};
    const fs::path dir = point_dir(sweep_dir, point);
    // A run that did not finish: whatever it left may be partial, or an older run's.
    // Its log.txt says why, when it says anything (a run refused before it simulated).
    if (const auto mark = incomplete_mark(dir.string())) {
        const std::string said = last_line_of(dir / "log.txt");
        if (said.rfind(kKilledPrefix, 0) == 0) {
            result.message = said.substr(std::string_view(kKilledPrefix).size()) + "; the files it left are partial";
            return result;
        }
        result.message = printable(*mark) + (said.empty() ? "" : "; log.txt ends: " + said);
        return result;
    }
    const fs::path summary_path = dir / "summary.json";
    struct stat info {};
    if (::lstat(summary_path.c_str(), &info) == 0 || errno != ENOENT) {  // present, or unreachable (a loop, too long)
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
