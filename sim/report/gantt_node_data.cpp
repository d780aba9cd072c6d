#include "sim/report/gantt_node_data.h"

#include <algorithm>
#include <cctype>
#include <tuple>

#include "sim/report/gantt_series.h"
#include "sim/report/lanes.h"

namespace memsim {

namespace {

// A resource lane's name and direction: "pcie10 d2h" -> {"pcie10", "d2h"}.
std::pair<std::string, std::string> name_and_direction(const std::string& lane) {
    const std::size_t space = lane.rfind(' ');
    return {lane.substr(0, space), space == std::string::npos ? std::string() : lane.substr(space + 1)};
}

// A name's trailing number: "pcie10" -> {"pcie", 10}; none: -1.
std::pair<std::string, long> name_number(const std::string& name) {
    std::size_t digits = name.size();
    while (digits > 0 && std::isdigit(static_cast<unsigned char>(name[digits - 1]))) --digits;
    return {name.substr(0, digits), digits < name.size() ? std::stol(name.substr(digits, 9)) : -1};
}

// Sort key of a resource lane: links before devices; the name with its number compared as
// a number ("pcie2" before "pcie10"); out (d2h, write, tx) before in.
std::tuple<int, std::string, long, int> resource_key(const std::string& lane, const LaneKey& key) {
    const auto [prefix, number] = name_number(name_and_direction(lane).first);
    return {key.kind == LaneKind::Disk ? 1 : 0, prefix, number, key.direction == Direction::Out ? 0 : 1};
}

const char* kind_name(LaneKind kind) {
    switch (kind) {
        case LaneKind::Swap: return "swap";
        case LaneKind::Link: return "link";
        case LaneKind::PeerLink: return "peer_link";
        case LaneKind::Disk: return "device";
        case LaneKind::Other: break;
    }
    return "other";
}

// Ten colours that tell GPUs apart (Tableau 10); beyond ten they repeat and the tooltip names the GPU.
const char* const kGpuColors[] = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
                                  "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"};

}  // namespace

bool gantt_shows_node(const EventLog& log) { return log.node || log.gpus > 1; }

const char* lane_group(const LaneKey& key) { return is_resource_lane(key) ? "node" : "gpu"; }

std::vector<std::string> node_lane_order(const std::vector<std::string>& lanes, const std::map<std::string, LaneKey>& keys,
                                         const std::vector<std::string>& platform_order) {
    const auto key_of = [&](const std::string& lane) {
        const auto it = keys.find(lane);
        return it != keys.end() ? it->second : LaneKey{};
    };
    std::vector<std::string> gpu, node;
    for (const std::string& lane : lanes) (is_resource_lane(key_of(lane)) ? node : gpu).push_back(lane);
    // A GPU's swaps by tier, nearest first (kTierRows' order), each write before its read.
    auto rank = [&](const std::string& lane) {
        const LaneKey key = key_of(lane);
        if (key.kind == LaneKind::Swap) return 2 + 2 * static_cast<int>(key.tier) + (key.direction == Direction::Out ? 0 : 1);
        return lane == lane::kCompute ? 0 : lane == lane::kRecompute ? 1 : 2 + 2 * static_cast<int>(kTierCount);
    };
    std::stable_sort(gpu.begin(), gpu.end(), [&](const std::string& a, const std::string& b) { return rank(a) < rank(b); });
    auto place = [&](const std::string& lane) {
        return static_cast<std::size_t>(std::find(platform_order.begin(), platform_order.end(), lane) - platform_order.begin());
    };
    std::stable_sort(node.begin(), node.end(), [&](const std::string& a, const std::string& b) {
        return std::make_pair(place(a), resource_key(a, key_of(a))) < std::make_pair(place(b), resource_key(b, key_of(b)));
    });
    gpu.insert(gpu.end(), node.begin(), node.end());
    return gpu;
}

std::string node_lane_display_name(const std::string& lane, const LaneKey& key) {
    if (key.kind == LaneKind::Swap)
        return std::string(key.direction == Direction::Out ? tier_row(key.tier).display_out : tier_row(key.tier).display_in);
    return lane_display_name(lane);
}

void add_lane_key_fields(nlohmann::json& entry, const LaneKey& key) {
    entry["kind"] = kind_name(key.kind);
    if (key.direction != Direction::None) entry["direction"] = key.direction == Direction::Out ? "out" : "in";
    if ((key.kind == LaneKind::Swap || key.kind == LaneKind::Disk) && key.tier != kNoTier) entry["tier"] = tier_row(key.tier).key;
}

void add_node_lane_fields(nlohmann::json& entry, const std::string& lane, const LaneKey& key) {
    entry["group"] = lane_group(key);
    if (!is_resource_lane(key)) return;
    // One of a numbered family ("pcie3 d2h" of "pcie* d2h"): the page draws a GPU's own
    // links of one direction in one row when every GPU is shown.
    const auto [name, direction] = name_and_direction(lane);
    const auto [prefix, number] = name_number(name);
    if (number < 0) return;
    entry["family"] = prefix + "* " + direction;
    entry["number"] = number;
}

int activity_gpu(const Activity& a) { return a.gpu; }
int mark_gpu(const Mark& m) { return m.gpu; }

nlohmann::json node_page_data(const EventLog& log, const Summary& summary, const Workload* workload, double& end_ms) {
    const int gpus = std::max(1, log.gpus);
    nlohmann::json colors = nlohmann::json::array(), memory = nlohmann::json::array(), kinds = nlohmann::json::array();
    for (int g = 0; g < gpus; ++g) {
        colors.push_back(kGpuColors[g % std::size(kGpuColors)]);
        // GPU g's own log, as GPU 0's (memory by kind reads GPU 0's records): its memory
        // samples, residency changes and swaps (a tensor in flight is memory of its own kind).
        EventLog own;
        own.reports_allocated = log.reports_allocated;
        auto as_gpu0 = [](auto record) { record.gpu = 0; return record; };
        for (const MemorySample& m : log.memory)
            if (m.gpu == g) own.memory.push_back(as_gpu0(m));
        for (const ResidencyChange& r : log.residency)
            if (r.gpu == g) own.residency.push_back(as_gpu0(r));
        for (const Activity& a : log.activities)
            if (a.gpu == g && !is_resource_lane(a.key)) own.activities.push_back(as_gpu0(a));
        memory.push_back(gantt_memory_series(own, end_ms));
        kinds.push_back(workload ? gantt_memory_kinds(own, *workload, end_ms) : nlohmann::json(nullptr));
    }
    nlohmann::json host = nlohmann::json::array();
    for (const HostSample& h : log.host_memory) {
        host.push_back({gantt_round_ns(h.time_ms), h.bytes_in_use});
        end_ms = std::max(end_ms, h.time_ms);
    }
    const std::optional<std::uint64_t>& capacity = log.host_capacity_bytes;
    nlohmann::json gpu_summaries = nlohmann::json::array();
    if (summary.node)
        for (const auto& g : summary.node->gpus)
            gpu_summaries.push_back({{"status", g.status}, {"time_ms", g.time_ms}, {"stall_ms", g.stall_ms},
                                     {"bytes_written", g.bytes_written}, {"bytes_read", g.bytes_read}});
    return {{"gpus", gpus},
            {"gpu_colors", colors},
            {"memory", memory},
            {"kinds", kinds},
            {"host_memory", host},
            {"host_capacity_bytes", capacity ? nlohmann::json(*capacity) : nlohmann::json(nullptr)},
            {"host_peak_bytes", summary.node ? summary.node->host_peak_bytes : 0},
            {"step_time_ms", summary.node ? summary.node->step_time_ms : summary.time_ms},
            {"gpu_summaries", gpu_summaries}};
}

}  // namespace memsim
