#include "sim/app/find/find_report.h"

#include <algorithm>

#include <fmt/format.h>

#include "sim/engine/run_status.h"
#include "sim/report/text_format.h"

namespace memsim {

namespace {

std::string cell(const nlohmann::json& summary, const std::string& field) {
    if (!summary.is_object() || !summary.contains(field)) return "-";
    const nlohmann::json& v = summary[field];
    if (v.is_string()) return v.get<std::string>();
    if (v.is_number_unsigned() && field.size() > 6 && field.ends_with("_bytes"))
        return format_bytes_human(v.get<std::uint64_t>());
    if (v.is_number_float()) return fmt::format("{:.3f}", v.get<double>());
    return v.dump();
}

// Fields measured at the end of an iteration, which a run that stopped did not reach.
bool is_time(const std::string& field) {
    return field == "overhead" || (field.size() > 3 && field.ends_with("_ms"));
}

const char* sought(FindMode mode) {
    switch (mode) {
        case FindMode::Until: return "the smallest";
        case FindMode::Minimize: return "the smallest";
        case FindMode::Maximize: return "the largest";
    }
    return "";
}

}  // namespace

std::string find_report(const FindRequest& request, const FindOutcome& outcome, std::size_t errors, const std::string& first_error) {
    const SearchResult& s = outcome.search;
    std::string out = fmt::format("find: {} {} in {} where '{}'\n", sought(request.mode), request.key, request.range,
                                  request.condition.text());
    std::vector<std::string> columns;
    for (const std::string& f : request.condition.fields())
        if (f != "status" && f != "message" && std::find(columns.begin(), columns.end(), f) == columns.end()) columns.push_back(f);
    for (const char* f : {"time_ms", "peak_bytes"})
        if (std::find(columns.begin(), columns.end(), f) == columns.end()) columns.emplace_back(f);

    std::vector<std::vector<std::string>> rows;
    std::vector<std::string> header{request.key, "holds", "status"};
    header.insert(header.end(), columns.begin(), columns.end());
    rows.push_back(header);
    bool stopped = false;
    for (const FoundPoint& p : outcome.points) {
        std::vector<std::string> row{p.value, p.holds ? "yes" : "no", p.status};
        // A run that stopped has no iteration time: its clock says when it stopped (as in
        // the sweep table and the run's own output).
        const bool finished = status_finished(p.status);
        stopped = stopped || !finished;
        for (const std::string& c : columns) row.push_back(!finished && is_time(c) ? "-" : cell(p.summary, c));
        rows.push_back(row);
    }
    out += aligned_table(rows);
    if (stopped) out += "a point that did not finish (every status but ok) has no time; its message is in results.csv\n";

    const std::size_t grid_points = static_cast<std::size_t>(std::count_if(
        s.points.begin(), s.points.end(), [](const SearchPoint& p) { return p.round == 0; }));
    out += fmt::format("{} points evaluated ({} on the first grid)", s.points.size(), grid_points);
    if (errors) out += fmt::format("; {} could not run (they count as failing), the first: {}", errors, first_error);
    out += "\n";
    if (!s.monotone) {
        out += fmt::format("not monotone: the condition changes {} times between neighbouring values; ", s.changes);
        out += s.exhaustive ? "every value of the range was evaluated, so the answer is exact\n"
                            : "every change seen was narrowed down, but changes between two grid points that agree are not seen\n";
    }
    if (s.stopped) out += "stopped at the limit on points evaluated before every change was narrowed down\n";
    const bool integer = outcome.axis.integer;
    const std::string precision = integer ? "exact for an integer key" : fmt::format("within {:g}%", request.tolerance * 100);
    if (!s.answer && errors) {
        // A point that could not run (a crash, a refused input) says nothing about the
        // condition: the answer may be among them.
        out += fmt::format("answer: unknown: no value that ran in {} satisfies '{}', and {} could not run (the answer may "
                           "be among them; the first: {})\n",
                           request.range, request.condition.text(), errors, first_error);
        return out;
    }
    if (!s.answer) {
        out += fmt::format("answer: none: no value evaluated in {} satisfies '{}'\n", request.range, request.condition.text());
        return out;
    }
    const auto text_of = [&](double v) {
        for (const FoundPoint& p : outcome.points)
            if (p.number == v) return p.value;
        return std::string("?");
    };
    out += fmt::format("answer: {} = {}", request.key, text_of(*s.answer));
    if (s.beyond)
        out += fmt::format(" (holds there, fails at {}, the next value evaluated {}; {})", text_of(*s.beyond),
                           request.mode == FindMode::Maximize ? "above" : "below", precision);
    else
        out += fmt::format(" (it holds at the {} end of the range)", request.mode == FindMode::Maximize ? "upper" : "lower");
    out += "\n";
    return out;
}

}  // namespace memsim
