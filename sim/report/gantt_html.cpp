#include "sim/report/gantt_html.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "sim/report/activity_labels.h"
#include "sim/report/gantt_node_data.h"
#include "sim/report/gantt_page.h"
#include "sim/report/gantt_series.h"
#include "sim/report/lanes.h"
#include "sim/report/text_format.h"

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

std::string lane_color(const std::string& lane, const LaneKey& key, std::size_t unknown_index) {
    static const char* const palette[] = {"#76b7b2", "#edc948", "#ff9da7", "#9c755f", "#bab0ac"};
    const char* fixed = lane_fixed_color(lane, key);
    return fixed ? fixed : palette[unknown_index % std::size(palette)];
}

double round_ns(double ms) { return gantt_round_ns(ms); }

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

// On a node (sim/report/gantt_node_data.h) each activity and mark also says its GPU, each lane
// its group, and the page gets the node's data; otherwise the data is as it always was.
nlohmann::json page_data(const EventLog& log, const Summary& summary, const Workload* workload) {
    const TensorNames names(workload);
    const bool node = gantt_shows_node(log);
    const std::map<std::string, LaneKey> keys = lane_keys(log);
    const std::vector<std::string> lanes = node ? node_lane_order(ordered_lanes(log), keys, log.resource_lanes)
                                                : ordered_lanes(log);
    std::map<std::string, int> lane_index;
    nlohmann::json lane_list = nlohmann::json::array();
    std::size_t unknown = 0;
    for (std::size_t i = 0; i < lanes.size(); ++i) {
        lane_index[lanes[i]] = static_cast<int>(i);
        const LaneKey& key = keys.at(lanes[i]);
        const bool is_known = is_known_lane(lanes[i]);
        lane_list.push_back({{"id", lanes[i]},
                             {"name", node ? node_lane_display_name(lanes[i], key) : lane_display_name(lanes[i])},
                             {"color", lane_color(lanes[i], key, is_known ? 0 : unknown++)}});
        add_lane_key_fields(lane_list.back(), key);
        if (node) add_node_lane_fields(lane_list.back(), lanes[i], key);
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
        if (t >= 0 && workload) tensor_names.emplace(t, names.described(t));
    };
    for (const Activity& a : log.activities) {
        const std::string label = activity_label(a, names);
        const std::string lane(a.lane);
        activities.push_back({lane_index.at(lane), round_ns(a.start_ms), round_ns(a.end_ms), a.op,
                              label_id(label.empty() ? lane : label), join_ints(a.tensors, ' '), a.bytes, a.for_tensor});
        if (node) activities.back().push_back(activity_gpu(a));
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
        if (node) marks.back().push_back(mark_gpu(m));
        end_ms = std::max(end_ms, m.time_ms);
        named(m.tensor);
    }
    // A node's page draws each GPU's memory from "node" (so "memory" is empty, "kinds" null).
    nlohmann::json node_data = node ? node_page_data(log, summary, workload, end_ms) : nlohmann::json(nullptr);
    const nlohmann::json kinds = node ? nlohmann::json(nullptr) : workload ? gantt_memory_kinds(log, *workload, end_ms) : nlohmann::json(nullptr);
    nlohmann::json name_table = nlohmann::json::object();
    for (const auto& [t, name] : tensor_names) name_table[std::to_string(t)] = name;
    const nlohmann::json memory = node ? nlohmann::json::array() : gantt_memory_series(log, end_ms);
    nlohmann::json data = {{"lanes", lane_list},
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
    if (node) data["node"] = std::move(node_data);
    return data;
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
    // A run that stopped has no iteration time, so no overhead: its clock says when it stopped.
    if (s.status == "ok") {
        item("time", fmt::format("{:.3f} ms", s.time_ms));
        item("overhead", fmt::format("{:.4f}x", s.overhead));
    } else {
        item("stopped at", fmt::format("{:.3f} ms (no iteration time, no overhead)", s.time_ms));
    }
    item("peak", format_bytes_human(s.peak_bytes));
    item("live peak", format_bytes_human(s.live_peak_bytes));
    if (s.caching) {  // torch_caching: peak is the reserved peak
        item("allocated peak", format_bytes_human(s.caching->allocated_peak_bytes));
        item("cached free at the reserved peak", format_bytes_human(s.caching->fragmentation_bytes));
    }
    item("compute", fmt::format("{:.3f} ms", s.compute_ms));
    item("stall", fmt::format("{:.3f} ms", s.stall_ms));
    item("recompute", fmt::format("{:.3f} ms ({} ops)", s.recompute_ms, s.recomputed_ops));
    item("written", format_bytes_human(s.bytes_written));
    item("read", format_bytes_human(s.bytes_read));
    item("swap selected", std::to_string(s.swap_selected_tensors));
    if (s.node) {  // the node's figures (time and the others above are GPU 0's)
        item("GPUs", std::to_string(s.node->gpus.size()));
        item("step time", fmt::format("{:.3f} ms", s.node->step_time_ms));
        item("host RAM peak", format_bytes_human(s.node->host_peak_bytes));
    }
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
    const nlohmann::json data = page_data(log, summary, workload);
    // On a node of several GPUs its lanes are drawn in the GPUs' colours: the selector is their legend.
    const int gpus = data.contains("node") ? data["node"]["gpus"].get<int>() : 1;
    std::string legend;
    for (const auto& lane : data["lanes"])
        if (gpus == 1 || lane["group"] != "node")
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
    if (gpus > 1) {
        html += "<div class=\"controls\"><span id=\"gpu-select\">show GPU";
        for (int g = 0; g < gpus; ++g)
            html += fmt::format("<button data-gpu=\"{}\" style=\"--c:{}\">{}</button>", g,
                                data["node"]["gpu_colors"][g].get<std::string>(), g);
        html += "<button data-gpu=\"all\">all</button></span><span id=\"gpu-figures\"></span></div>\n";
    }
    html += "<noscript>This chart is drawn by JavaScript; enable it to see the lanes.</noscript>\n";
    html += "<svg id=\"chart\" xmlns=\"http://www.w3.org/2000/svg\"></svg>\n<div id=\"tooltip\"></div>\n";
    html += "<script id=\"memsim-data\" type=\"application/json\">" + script_safe(data.dump()) + "</script>\n";
    html += fmt::format("<script>{}</script>\n", gantt_page::kTooltipScript);
    if (data.contains("node")) html += fmt::format("<script>{}</script>\n", gantt_page::kNodeScript);
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
