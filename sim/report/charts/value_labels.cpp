#include "sim/report/charts/value_labels.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <optional>
#include <map>
#include <utility>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include "sim/report/shipped_configs.h"  // generated from configs/*.yaml (CMakeLists.txt)
#include "sim/scenario/node_section.h"
#include "sim/scenario/parser.h"
#include "sim/scenario/schema.h"
#include "sim/scenario/yaml_control.h"

namespace memsim {

namespace {

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

// Three significant digits, no trailing zeros: "23.4", "3.2", "798".
std::string short_number(double v) {
    if (v == 0) return "0";
    const int digits = static_cast<int>(std::floor(std::log10(std::fabs(v)))) + 1;
    const int decimals = std::max(0, 3 - digits);
    std::string text = fmt::format("{:.{}f}", v, decimals);
    if (text.find('.') != std::string::npos) {
        while (text.back() == '0') text.pop_back();
        if (text.back() == '.') text.pop_back();
    }
    return text;
}

bool has_letter(const std::string& text) {
    return std::any_of(text.begin(), text.end(), [](char c) { return std::isalpha(static_cast<unsigned char>(c)); });
}

// A value of platform.disk as a scenario reads it (the schema's keys, node_section.h's
// parse: a rate or latency not given is the default's); nullopt for a value that is not
// a map of disk keys.
std::optional<DiskSpec> written_disk(const YAML::Node& node) {
    static const Field& disk = []() -> const Field& {
        const auto child = [](const Field& f, const char* key) -> const Field& {
            return *std::find_if(f.children.begin(), f.children.end(), [&](const Field& c) { return c.key == key; });
        };
        return child(child(schema(), "platform"), "disk");
    }();
    if (!node.IsMap()) return std::nullopt;
    try {
        const Parser parser("sweep value", "");
        parser.check_keys(node, disk, "platform.disk");
        return parse_disk(node, parser, "platform.disk");
    } catch (const InputError&) {
        return std::nullopt;
    }
}

bool same_disk(const DiskSpec& a, const DiskSpec& b) {
    const auto near = [](double x, double y) { return std::fabs(x - y) <= 1e-9 * std::max(std::fabs(x), std::fabs(y)); };
    return near(a.read_bytes_per_s, b.read_bytes_per_s) && near(a.write_bytes_per_s, b.write_bytes_per_s) &&
           near(a.read_latency_ms, b.read_latency_ms) && near(a.write_latency_ms, b.write_latency_ms);
}

std::string rate_text(double bytes_per_s) {
    for (const auto& [scale, name] : {std::pair{1e9, "GB/s"}, {1e6, "MB/s"}, {1e3, "KB/s"}})
        if (bytes_per_s >= scale) return fmt::format("{} {}", short_number(bytes_per_s / scale), name);
    return fmt::format("{} B/s", short_number(bytes_per_s));
}

std::string latency_text(double ms) { return ms >= 1 ? short_number(ms) + " ms" : short_number(ms * 1000) + " us"; }

// "23.4 MB/s", "write 331 MB/s, read 837 MB/s", "3.2 GB/s, latency 12 us read, 16 us write".
std::string disk_text(const DiskSpec& d) {
    std::string text = d.read_bytes_per_s == d.write_bytes_per_s
                           ? rate_text(d.read_bytes_per_s)
                           : fmt::format("write {}, read {}", rate_text(d.write_bytes_per_s), rate_text(d.read_bytes_per_s));
    if (d.read_latency_ms == d.write_latency_ms && d.read_latency_ms > 0) text += ", latency " + latency_text(d.read_latency_ms);
    else if (d.read_latency_ms != d.write_latency_ms)
        text += fmt::format(", latency {} read, {} write", latency_text(d.read_latency_ms), latency_text(d.write_latency_ms));
    return text;
}

// The shipped platform file whose disk this is ("phone"), if one is: configs/*.yaml,
// compiled in (CMakeLists.txt), in the order of their names.
std::string config_with_disk(const DiskSpec& disk) {
    static const std::vector<std::pair<std::string, DiskSpec>> shipped = [] {
        std::vector<std::pair<std::string, DiskSpec>> out;
        for (const auto& [name, text] : kShippedConfigs)
            if (const auto d = written_disk(YAML::Load(text)["disk"])) out.emplace_back(name, *d);
        return out;
    }();
    for (const auto& [name, d] : shipped)
        if (same_disk(d, disk)) return name;
    return "";
}

// Disks written as maps (sweep.platform.disk): each by the platform file that has it and
// its numbers in readable units ("phone: 23.4 MB/s"); nullopt when a value is not a disk.
std::optional<std::vector<std::string>> disk_labels(const std::vector<std::string>& values) {
    std::vector<std::string> labels;
    try {
        for (const std::string& v : values) {
            if (first_yaml_control_byte(v)) return std::nullopt;  // yaml-cpp may not end on it
            const auto disk = written_disk(YAML::Load(v));
            if (!disk) return std::nullopt;
            const std::string config = config_with_disk(*disk);
            // A named disk shows its bandwidth; the file has the rest (a latency of microseconds).
            DiskSpec shown = *disk;
            if (!config.empty() && shown.read_latency_ms < 1 && shown.write_latency_ms < 1)
                shown.read_latency_ms = shown.write_latency_ms = 0;
            labels.push_back(config.empty() ? disk_text(shown) : config + ": " + disk_text(shown));
        }
    } catch (const YAML::Exception&) {
        return std::nullopt;
    }
    return labels;
}

}  // namespace

std::string short_key(const std::string& dotted) { return dotted.substr(dotted.rfind('.') + 1); }

std::string key_label(const std::string& dotted) {
    static const std::map<std::string, std::string> labels = {
        {"platform", "platform"},
        {"platform.disk", "disk"},
        {"platform.disk.bandwidth", "disk bandwidth"},
        {"platform.disk.read_bandwidth", "disk read bandwidth"},
        {"platform.disk.write_bandwidth", "disk write bandwidth"},
        {"platform.disk.latency", "disk latency"},
        {"platform.disk.read_latency", "disk read latency"},
        {"platform.disk.write_latency", "disk write latency"},
        {"platform.gpu.speed_scale", "GPU speed (x the profiled device)"},
        {"platform.gpu.preset", "GPU (device model)"},
        {"platform.gpu.memory_bandwidth", "GPU memory bandwidth"},
        {"platform.gpu.launch_overhead", "kernel launch overhead"},
        {"platform.memory.budget", "memory budget"},
        {"platform.memory.budget_ratio", "budget ratio (of the no-policy peak)"},
        {"policy", "policy"},
        {"policy.allocator", "allocator"},
        {"policy.semantics", "semantics"},
        {"policy.hybrid", "hybrid swap-or-drop"},
        {"policy.swap.mode", "swap mode"},
        {"policy.swap.select", "swap selection"},
        {"policy.swap.prefetch", "prefetch rule"},
        {"policy.swap.prefetch.lead_ops", "prefetch lead (operators ahead)"},
        {"policy.swap.prefetch.lead_ms", "prefetch lead"},
        {"policy.recompute.heuristic", "recompute heuristic"},
        {"policy.recompute.planner", "recompute planner"},
        {"policy.recompute.max_overhead", "recompute overhead cap (x)"},
        {"workload", "workload"},
        {"workload.batch", "batch size"},
        {"workload.checkpointing", "activation checkpointing"},
        {"workload.costs", "operator times"},
        {"workload.dtr_log", "DTR log"},
        {"workload.profile", "profile"},
    };
    const auto it = labels.find(dotted);
    return it == labels.end() ? dotted : it->second;
}

DisplayUnit display_unit(const ValueAxis& axis) {
    if (!axis.numeric || axis.positions.empty()) return {};
    // The unit of the middle value: a range from 10 MB/s to 10 GB/s reads in MB/s.
    std::vector<double> sorted;
    for (double v : axis.positions) sorted.push_back(std::fabs(v));
    std::sort(sorted.begin(), sorted.end());
    const double top = sorted[sorted.size() / 2];
    if (axis.unit == "B/s") {
        for (const auto& [scale, name] : {std::pair{1e9, "GB/s"}, {1e6, "MB/s"}, {1e3, "KB/s"}})
            if (top >= scale) return {name, scale};
        return {"B/s", 1.0};
    }
    if (axis.unit == "B") {
        for (const auto& [scale, name] : {std::pair{1073741824.0, "GiB"}, {1048576.0, "MiB"}, {1024.0, "KiB"}})
            if (top >= scale) return {name, scale};
        return {"B", 1.0};
    }
    if (axis.unit == "ms") {
        if (top >= 1000) return {"s", 1000.0};
        if (top >= 1) return {"ms", 1.0};
        return {"us", 1e-3};
    }
    return {};
}

std::string axis_label(const std::string& dotted, const DisplayUnit& unit) {
    const std::string label = key_label(dotted);
    return unit.name.empty() ? label : fmt::format("{} ({})", label, unit.name);
}

std::string quantity_text(const std::string& written) {
    if (!has_letter(written)) return written;  // a plain number, a ratio
    const ValueAxis axis = value_axis({written});
    if (!axis.numeric) return written;
    const DisplayUnit unit = display_unit(axis);
    return fmt::format("{} {}", short_number(axis.positions[0] / unit.scale), unit.name);
}

std::vector<std::string> value_labels(const SweepParameter& p) {
    if (p.key == "platform.disk")
        if (auto disks = disk_labels(p.values)) return *disks;
    // Platform files by their names.
    if (p.key == "platform" && std::all_of(p.values.begin(), p.values.end(), [](const std::string& v) {
            return v.size() > 5 && v.compare(v.size() - 5, 5, ".yaml") == 0;
        })) {
        std::vector<std::string> names;
        for (const std::string& v : p.values) names.push_back(std::filesystem::path(v).stem().string());
        return names;
    }
    std::vector<std::vector<std::pair<std::string, std::string>>> leaves;
    std::vector<std::string> plain;
    for (const std::string& v : p.values) plain.push_back(quantity_text(v));
    try {
        for (const std::string& v : p.values) {
            if (first_yaml_control_byte(v)) return plain;  // yaml-cpp may not end on it
            const YAML::Node node = YAML::Load(v);
            if (!node.IsMap()) return plain;
            leaves.emplace_back();
            flatten_leaves(node, "", leaves.back());
        }
    } catch (const YAML::Exception&) {
        return plain;
    }
    const auto leaf_text = [](const std::pair<std::string, std::string>& leaf) {
        return fmt::format("{}={}", short_key(leaf.first), quantity_text(leaf.second));
    };
    std::vector<std::string> labels;
    for (const auto& mine : leaves) {
        std::string label, own;
        for (const auto& leaf : mine) {
            const bool everywhere = std::all_of(leaves.begin(), leaves.end(), [&](const auto& other) {
                return std::find(other.begin(), other.end(), leaf) != other.end();
            });
            if (!everywhere) label += (label.empty() ? "" : " ") + leaf_text(leaf);
            own += (own.empty() ? "" : " ") + leaf_text(leaf);
        }
        labels.push_back(!label.empty() ? label : own.empty() ? "{}" : "only " + own);
    }
    return labels;
}

}  // namespace memsim
