#include "sim/output/gantt_html.h"

#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "sim/output/gantt_page.h"
#include "sim/output/lanes.h"
#include "sim/output/text_format.h"

namespace memsim {

namespace {

std::string html_escape(const std::string& text) {
    std::string out;
    for (char c : text) {
        switch (c) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            default: out += c;
        }
    }
    return out;
}

std::string lane_color(const std::string& lane, std::size_t unknown_index) {
    static const std::map<std::string, std::string> known = {{lane::kCompute, "#4e79a7"},
                                                             {lane::kRecompute, "#f28e2b"},
                                                             {lane::kDiskWrite, "#e15759"},
                                                             {lane::kDiskRead, "#59a14f"},
                                                             {lane::kStall, "#b07aa1"}};
    static const char* const palette[] = {"#76b7b2", "#edc948", "#ff9da7", "#9c755f", "#bab0ac"};
    auto it = known.find(lane);
    return it != known.end() ? it->second : palette[unknown_index % std::size(palette)];
}

double round_ns(double ms) {
    const double r = std::round(ms * 1e6) / 1e6;
    return r == 0.0 ? 0.0 : r;
}

// The data the page's script draws from; strings are de-duplicated into a label table.
nlohmann::json page_data(const EventLog& log) {
    const std::vector<std::string> lanes = ordered_lanes(log);
    std::map<std::string, int> lane_index;
    nlohmann::json lane_list = nlohmann::json::array();
    std::size_t unknown = 0;
    for (std::size_t i = 0; i < lanes.size(); ++i) {
        lane_index[lanes[i]] = static_cast<int>(i);
        const bool is_known = is_known_lane(lanes[i]);
        lane_list.push_back({{"id", lanes[i]},
                             {"name", lane_display_name(lanes[i])},
                             {"color", lane_color(lanes[i], is_known ? 0 : unknown++)}});
    }
    std::map<std::string, int> label_index;
    nlohmann::json labels = nlohmann::json::array();
    nlohmann::json activities = nlohmann::json::array();
    double end_ms = std::max(0.0, log.forward_end_ms);
    for (const Activity& a : log.activities) {
        const std::string label = a.label.empty() ? a.lane : a.label;
        auto [it, inserted] = label_index.emplace(label, static_cast<int>(labels.size()));
        if (inserted) labels.push_back(label);
        activities.push_back({lane_index.at(a.lane), round_ns(a.start_ms), round_ns(a.end_ms), a.op, it->second,
                              join_ints(a.tensors, ' '), a.bytes});
        end_ms = std::max(end_ms, a.end_ms);
    }
    std::vector<MemorySample> samples = log.memory;
    std::stable_sort(samples.begin(), samples.end(),
                     [](const MemorySample& a, const MemorySample& b) { return a.time_ms < b.time_ms; });
    nlohmann::json memory = nlohmann::json::array();
    for (const MemorySample& m : samples) {
        memory.push_back({round_ns(m.time_ms), m.bytes_in_use, m.live_bytes});
        end_ms = std::max(end_ms, m.time_ms);
    }
    return {{"lanes", lane_list},
            {"labels", labels},
            {"activities", activities},
            {"memory", memory},
            {"budget_bytes", log.budget_bytes ? nlohmann::json(*log.budget_bytes) : nlohmann::json(nullptr)},
            {"forward_end_ms", log.forward_end_ms >= 0 ? nlohmann::json(round_ns(log.forward_end_ms)) : nlohmann::json(nullptr)},
            {"end_ms", round_ns(end_ms)}};
}

// JSON inside <script>: '<' only occurs inside strings, where \u003c is the same character,
// so "</script>" in an operator name cannot end the block.
std::string script_safe(const std::string& json_text) {
    std::string out;
    out.reserve(json_text.size());
    for (char c : json_text) {
        if (c == '<') out += "\\u003c";
        else out += c;
    }
    return out;
}

std::string summary_html(const Summary& s) {
    std::string out = fmt::format("<span class=\"status {0}\">{0}</span>", html_escape(s.status));
    auto item = [&](const char* name, const std::string& value) {
        out += fmt::format("<span>{} <b>{}</b></span>", name, html_escape(value));
    };
    item("time", fmt::format("{:.3f} ms", s.time_ms));
    item("peak", format_bytes_human(s.peak_bytes));
    item("live peak", format_bytes_human(s.live_peak_bytes));
    item("compute", fmt::format("{:.3f} ms", s.compute_ms));
    item("stall", fmt::format("{:.3f} ms", s.stall_ms));
    item("recompute", fmt::format("{:.3f} ms ({} ops)", s.recompute_ms, s.recomputed_ops));
    item("written", format_bytes_human(s.bytes_written));
    item("read", format_bytes_human(s.bytes_read));
    item("swapped tensors", std::to_string(s.swapped_tensors));
    if (!s.allocator.empty()) item("allocator", s.allocator);
    if (!s.swap_mode.empty()) item("swap", s.swap_mode);
    return out;
}

}  // namespace

std::string gantt_html(const EventLog& log, const Summary& summary, const std::string& title) {
    const nlohmann::json data = page_data(log);
    std::string legend;
    for (const auto& lane : data["lanes"])
        legend += fmt::format("<span style=\"--c:{}\">{}</span>", lane["color"].get<std::string>(),
                              html_escape(lane["name"].get<std::string>()));
    std::string html;
    html += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
    html += fmt::format("<title>memsim: {}</title>\n<style>{}</style>\n</head>\n<body>\n", html_escape(title),
                        gantt_page::kStyle);
    html += fmt::format("<h1>memsim: {}</h1>\n", html_escape(title));
    html += fmt::format("<div class=\"summary\">{}</div>\n", summary_html(summary));
    if (!summary.message.empty()) html += fmt::format("<div class=\"message\">{}</div>\n", html_escape(summary.message));
    html += "<div class=\"controls\"><button id=\"zoom-in\">zoom in</button><button id=\"zoom-out\">zoom out</button>"
            "<button id=\"reset\">reset</button><span id=\"window\"></span>";
    html += fmt::format("<span class=\"legend\">{}</span>", legend);
    html += "<span>wheel: zoom, drag: pan, double-click: reset</span></div>\n";
    html += "<noscript>This chart is drawn by JavaScript; enable it to see the lanes.</noscript>\n";
    html += "<svg id=\"chart\" xmlns=\"http://www.w3.org/2000/svg\"></svg>\n<div id=\"tooltip\"></div>\n";
    html += "<script id=\"memsim-data\" type=\"application/json\">" + script_safe(data.dump()) + "</script>\n";
    html += fmt::format("<script>{}</script>\n</body>\n</html>\n", gantt_page::kScript);
    return html;
}

void write_gantt_html(const EventLog& log, const Summary& summary, const std::string& title, const std::string& path) {
    write_text_file(path, gantt_html(log, summary, title));
}

}  // namespace memsim
