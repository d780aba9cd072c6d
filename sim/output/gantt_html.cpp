#include "sim/output/gantt_html.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "sim/output/activity_labels.h"
#include "sim/output/gantt_page.h"
#include "sim/output/lanes.h"
#include "sim/output/memory_kinds.h"
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
struct MarkStyle {
    const char* color;
    const char* shape;  // triangle | diamond | cross
};
MarkStyle mark_style(const std::string& kind) {
    if (kind == mark::kEvictToDisk) return {"#c03a3c", "triangle"};
    if (kind == mark::kDrop) return {"#d37215", "diamond"};
    if (kind == mark::kCancelWrite) return {"#555555", "cross"};
    return {"#7b4f9d", "diamond"};
}

// Fills of memory by kind: pale, so the in-use, live and budget lines stay readable on top.
const char* const kKindColors[kMemoryKinds] = {"#c9c3bf", "#a0cbe8", "#ffbe7d", "#d4a6c8", "#ff9d9a", "#8cd17d"};

nlohmann::json page_data(const EventLog& log, const Workload* workload) {
    const TensorNames names(workload);
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
    auto label_id = [&](const std::string& label) {
        auto [it, inserted] = label_index.emplace(label, static_cast<int>(labels.size()));
        if (inserted) labels.push_back(label);
        return it->second;
    };
    std::map<int, std::string> tensor_names;  // every tensor a tooltip may name
    auto named = [&](int t) {
        if (t >= 0 && workload) tensor_names.emplace(t, names(t));
    };
    for (const Activity& a : log.activities) {
        const std::string label = activity_label(a, names);
        const std::string lane(a.lane);
        activities.push_back({lane_index.at(lane), round_ns(a.start_ms), round_ns(a.end_ms), a.op,
                              label_id(label.empty() ? lane : label), join_ints(a.tensors, ' '), a.bytes, a.for_tensor});
        end_ms = std::max(end_ms, a.end_ms);
        for (int t : a.tensors) named(t);
        named(a.for_tensor);
    }
    // Instant events: known kinds in a fixed order, then new ones by name.
    std::vector<std::string> mark_kinds;
    for (const char* known : {mark::kEvictToDisk, mark::kDrop, mark::kCancelWrite})
        if (std::any_of(log.marks.begin(), log.marks.end(), [&](const Mark& m) { return m.kind == known; })) mark_kinds.emplace_back(known);
    std::set<std::string> other_kinds;
    for (const Mark& m : log.marks)
        if (std::find(mark_kinds.begin(), mark_kinds.end(), m.kind) == mark_kinds.end()) other_kinds.insert(m.kind);
    mark_kinds.insert(mark_kinds.end(), other_kinds.begin(), other_kinds.end());
    nlohmann::json kind_list = nlohmann::json::array(), marks = nlohmann::json::array();
    for (const std::string& kind : mark_kinds) {
        const MarkStyle style = mark_style(kind);
        kind_list.push_back({{"id", kind}, {"name", mark_display_name(kind)}, {"color", style.color}, {"shape", style.shape}});
    }
    for (const Mark& m : log.marks) {
        const auto kind = std::find(mark_kinds.begin(), mark_kinds.end(), m.kind) - mark_kinds.begin();
        marks.push_back({kind, round_ns(m.time_ms), m.op, m.tensor, m.bytes, label_id(mark_label(m, names))});
        end_ms = std::max(end_ms, m.time_ms);
        named(m.tensor);
    }
    nlohmann::json kinds = nullptr;
    if (workload) {
        const std::vector<MemoryByKindRow> rows = memory_by_kind(log, *workload);
        // Only the kinds the run had, bottom of the stack first.
        std::vector<std::size_t> used;
        for (std::size_t k = 0; k < kMemoryKinds; ++k)
            if (std::any_of(rows.begin(), rows.end(), [&](const MemoryByKindRow& r) { return r.bytes[k] > 0; })) used.push_back(k);
        if (!used.empty()) {
            kinds = {{"names", nlohmann::json::array()}, {"colors", nlohmann::json::array()}, {"rows", nlohmann::json::array()}};
            for (std::size_t k : used) {
                kinds["names"].push_back(memory_kind_name(static_cast<MemoryKind>(k)));
                kinds["colors"].push_back(kKindColors[k]);
            }
            for (const MemoryByKindRow& r : rows) {
                nlohmann::json row = {round_ns(r.time_ms)};
                for (std::size_t k : used) row.push_back(r.bytes[k]);
                kinds["rows"].push_back(std::move(row));
                end_ms = std::max(end_ms, r.time_ms);
            }
        }
    }
    nlohmann::json name_table = nlohmann::json::object();
    for (const auto& [t, name] : tensor_names) name_table[std::to_string(t)] = name;
    std::vector<MemorySample> samples = log.memory;
    std::stable_sort(samples.begin(), samples.end(),
                     [](const MemorySample& a, const MemorySample& b) { return a.time_ms < b.time_ms; });
    nlohmann::json memory = nlohmann::json::array();
    for (const MemorySample& m : samples) {
        if (log.reports_allocated) memory.push_back({round_ns(m.time_ms), m.bytes_in_use, m.live_bytes, m.allocated_bytes});
        else memory.push_back({round_ns(m.time_ms), m.bytes_in_use, m.live_bytes});
        end_ms = std::max(end_ms, m.time_ms);
    }
    return {{"lanes", lane_list},
            {"labels", labels},
            {"activities", activities},
            {"mark_kinds", kind_list},
            {"marks", marks},
            {"memory", memory},
            {"reports_allocated", log.reports_allocated},
            {"kinds", kinds},
            {"tensor_names", name_table},
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

std::string summary_html(const Summary& s, const EventLog& log) {
    std::string out = fmt::format("<span class=\"status {0}\">{0}</span>", html_escape(s.status));
    auto item = [&](const char* name, const std::string& value) {
        out += fmt::format("<span>{} <b>{}</b></span>", name, html_escape(value));
    };
    item("time", fmt::format("{:.3f} ms", s.time_ms));
    item("overhead", fmt::format("{:.4f}x", s.overhead));
    item("peak", format_bytes_human(s.peak_bytes));
    item("live peak", format_bytes_human(s.live_peak_bytes));
    if (s.caching) {  // torch_caching: peak is the reserved peak
        item("allocated peak", format_bytes_human(s.caching->allocated_peak_bytes));
        item("fragmentation", format_bytes_human(s.caching->fragmentation_bytes));
    }
    item("compute", fmt::format("{:.3f} ms", s.compute_ms));
    item("stall", fmt::format("{:.3f} ms", s.stall_ms));
    item("recompute", fmt::format("{:.3f} ms ({} ops)", s.recompute_ms, s.recomputed_ops));
    item("written", format_bytes_human(s.bytes_written));
    item("read", format_bytes_human(s.bytes_read));
    item("swap selected", std::to_string(s.swap_selected_tensors));
    // Instant events, counted per kind (what the markers below show).
    std::map<std::string, std::size_t> marks;
    for (const Mark& m : log.marks) ++marks[m.kind];
    for (const char* kind : {mark::kEvictToDisk, mark::kDrop, mark::kCancelWrite})
        if (marks.count(kind) == 0) marks[kind] = 0;
    for (const auto& [kind, count] : marks)
        out += fmt::format("<span class=\"mark-count\" data-kind=\"{}\">{} <b>{}</b></span>", html_escape(kind),
                           html_escape(mark_display_name(kind)), count);
    return out;
}

std::string settings_html(const RunHeader& header, const Summary& s) {
    std::string out;
    auto item = [&](const std::string& name, const std::string& value) {
        out += fmt::format("<span><i>{}</i> <b>{}</b></span>", html_escape(name), html_escape(value));
    };
    if (!header.settings.empty()) {
        for (const auto& [name, value] : header.settings) item(name, value);
    } else {  // only the summary at hand
        if (!s.workload.empty()) item("workload", s.workload);
        if (!s.allocator.empty()) item("allocator", s.allocator);
        if (!s.swap_mode.empty()) item("swap", s.swap_mode);
    }
    return out;
}

}  // namespace

std::string gantt_html(const EventLog& log, const Summary& summary, const std::string& title) {
    return gantt_html(log, summary, RunHeader{title, {}}, nullptr);
}

std::string gantt_html(const EventLog& log, const Summary& summary, const RunHeader& header, const Workload* workload) {
    const std::string& title = header.title;
    const nlohmann::json data = page_data(log, workload);
    std::string legend;
    for (const auto& lane : data["lanes"])
        legend += fmt::format("<span style=\"--c:{}\">{}</span>", lane["color"].get<std::string>(),
                              html_escape(lane["name"].get<std::string>()));
    std::string html;
    html += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
    html += fmt::format("<title>memsim: {}</title>\n<style>{}</style>\n</head>\n<body>\n", html_escape(title),
                        gantt_page::kStyle);
    html += fmt::format("<h1>memsim: {}</h1>\n", html_escape(title));
    html += fmt::format("<div class=\"settings\">{}</div>\n", settings_html(header, summary));
    html += fmt::format("<div class=\"summary\">{}</div>\n", summary_html(summary, log));
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

void write_gantt_html(const EventLog& log, const Summary& summary, const RunHeader& header, const Workload* workload,
                      const std::string& path) {
    write_text_file(path, gantt_html(log, summary, header, workload));
}

}  // namespace memsim
