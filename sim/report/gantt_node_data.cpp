#include "sim/report/gantt_node_data.h"

#include <algorithm>
#include <cctype>
#include <tuple>

#include "sim/report/gantt_series.h"
#include "sim/report/lanes.h"

namespace memsim {

namespace {

bool ends_with(const std::string& text, const std::string& tail) {
    return text.size() > tail.size() && text.compare(text.size() - tail.size(), tail.size(), tail) == 0;
}

bool is_link_lane(const std::string& lane) { return ends_with(lane, " d2h") || ends_with(lane, " h2d"); }

// Sort key of a resource lane: links before disks; the name with its number compared as a
// number ("pcie2" before "pcie10"); d2h before h2d, write before read.
std::tuple<int, std::string, long, int> resource_key(const std::string& lane) {
    const std::size_t space = lane.rfind(' ');
    const std::string name = lane.substr(0, space), direction = lane.substr(space + 1);
    std::size_t digits = name.size();
    while (digits > 0 && std::isdigit(static_cast<unsigned char>(name[digits - 1]))) --digits;
    const long number = digits < name.size() ? std::stol(name.substr(digits, 9)) : -1;
    const int order = direction == "d2h" || direction == "write" ? 0 : 1;
    return {is_link_lane(lane) ? 0 : 1, name.substr(0, digits), number, order};
}

// Ten colours that tell GPUs apart (Tableau 10); beyond ten they repeat and the tooltip names the GPU.
const char* const kGpuColors[] = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
                                  "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"};

}  // namespace

bool gantt_shows_node(const EventLog& log) { return log.node || log.gpus > 1; }

const char* lane_group(const std::string& lane) { return is_resource_lane(lane) ? "node" : "gpu"; }

std::vector<std::string> node_lane_order(const std::vector<std::string>& lanes, const std::vector<std::string>& platform_order) {
    std::vector<std::string> gpu, node;
    for (const std::string& lane : lanes) (std::string(lane_group(lane)) == "node" ? node : gpu).push_back(lane);
    // A GPU's swaps by tier, nearest first: host RAM, then disk; each write before its read.
    const std::vector<std::string> swaps = {lane::kHostWrite, lane::kHostRead, lane::kDiskWrite, lane::kDiskRead};
    auto rank = [&](const std::string& lane) {
        const auto at = std::find(swaps.begin(), swaps.end(), lane);
        if (at != swaps.end()) return 2 + static_cast<int>(at - swaps.begin());
        return lane == lane::kCompute ? 0 : lane == lane::kRecompute ? 1 : 6;
    };
    std::stable_sort(gpu.begin(), gpu.end(), [&](const std::string& a, const std::string& b) { return rank(a) < rank(b); });
    auto place = [&](const std::string& lane) {
        return static_cast<std::size_t>(std::find(platform_order.begin(), platform_order.end(), lane) - platform_order.begin());
    };
    std::stable_sort(node.begin(), node.end(), [&](const std::string& a, const std::string& b) {
        return std::make_pair(place(a), resource_key(a)) < std::make_pair(place(b), resource_key(b));
    });
    gpu.insert(gpu.end(), node.begin(), node.end());
    return gpu;
}

std::string node_lane_display_name(const std::string& lane) {
    if (lane == lane::kHostWrite) return "host RAM write";
    if (lane == lane::kHostRead) return "host RAM read";
    return lane_display_name(lane);
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
            if (a.gpu == g && !is_resource_lane(a.lane)) own.activities.push_back(as_gpu0(a));
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
