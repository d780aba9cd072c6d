#include "sim/report/chrome_trace.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <set>
#include <utility>

#include "sim/report/activity_labels.h"
#include "sim/report/lanes.h"
#include "sim/report/text_format.h"

namespace memsim {

namespace {

constexpr int kPid = 1;
constexpr int kCounterTid = 0;

// Rounded to the nanosecond so that float noise does not leak into the file.
double to_us(double ms) {
    const double us = std::round(ms * 1e6) / 1e3;
    return us == 0.0 ? 0.0 : us;
}

nlohmann::json metadata(const char* name, int pid, int tid, nlohmann::json args) {
    return {{"ph", "M"}, {"name", name}, {"pid", pid}, {"tid", tid}, {"ts", 0}, {"args", std::move(args)}};
}

nlohmann::json counter(const char* name, int pid, double time_ms, std::uint64_t bytes) {
    return {{"ph", "C"},  {"name", name},           {"cat", "memory"},
            {"pid", pid}, {"tid", kCounterTid}, {"ts", to_us(time_ms)}, {"args", {{"bytes", bytes}}}};
}

// One process "memsim"; on a node (docs/tiers.md) one process per GPU (pid = gpu + 1,
// "GPU g") and one "node" after them for the links' and disks' lanes and host RAM.
struct Processes {
    explicit Processes(const EventLog& log) : node(log.node), node_pid(log.gpus + 1) {}
    [[nodiscard]] int of(const Activity& a) const {
        if (!node) return kPid;
        return is_resource_lane(a.key) ? node_pid : a.gpu + 1;
    }
    [[nodiscard]] int gpu(int g) const { return node ? g + 1 : kPid; }
    bool node;
    int node_pid;
};

// The lanes of one process in drawing order: the resource lanes in the platform's order.
std::vector<std::string> process_lanes(const EventLog& log, const Processes& processes, int pid) {
    if (!processes.node) return ordered_lanes(log);
    std::set<std::string> present;
    for (const Activity& a : log.activities)
        if (processes.of(a) == pid) present.emplace(a.lane);
    std::vector<std::string> lanes;
    if (pid == processes.node_pid) {
        for (const std::string& lane : log.resource_lanes)
            if (present.erase(lane) > 0) lanes.push_back(lane);
        lanes.insert(lanes.end(), present.begin(), present.end());
        return lanes;
    }
    for (const std::string& lane : ordered_lanes(log))
        if (present.count(lane) > 0) lanes.push_back(lane);
    return lanes;
}

}  // namespace

nlohmann::json chrome_trace(const EventLog& log, const Workload* workload) {
    const TensorNames names(workload);
    const Processes processes(log);
    nlohmann::json events = nlohmann::json::array();

    // Per track, events must come in start order; a stable sort keeps the log order for ties.
    std::vector<std::size_t> order(log.activities.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return log.activities[a].start_ms < log.activities[b].start_ms;
    });

    // Complete events on one track must not partly overlap (viewers expect them nested). The
    // known lanes never overlap; a lane that does (a new kind, concurrent transfers) gets extra
    // tracks "name (2)", "name (3)", each activity on the first track free at its start.
    using ProcessLane = std::pair<int, std::string>;  // process, lane
    std::map<ProcessLane, std::vector<double>> track_ends;  // per lane: when each of its tracks is free
    std::vector<std::size_t> track_of(log.activities.size(), 0);
    for (std::size_t index : order) {
        const Activity& a = log.activities[index];
        std::vector<double>& ends = track_ends[{processes.of(a), std::string(a.lane)}];
        const double start = to_us(a.start_ms), end = std::max(start, to_us(a.end_ms));
        std::size_t k = 0;
        while (k < ends.size() && ends[k] > start) ++k;
        if (k == ends.size()) ends.push_back(end);
        else ends[k] = end;
        track_of[index] = k;
    }
    std::vector<std::pair<int, std::string>> process_names;
    if (!processes.node) {
        process_names.emplace_back(kPid, "memsim");
    } else {
        for (int g = 0; g < log.gpus; ++g) process_names.emplace_back(processes.gpu(g), "GPU " + std::to_string(g));
        process_names.emplace_back(processes.node_pid, "node");
    }
    std::map<ProcessLane, int> first_tid_of_lane;
    for (const auto& [pid, process_name] : process_names) {
        events.push_back(metadata("process_name", pid, kCounterTid, {{"name", process_name}}));
        if (processes.node) events.push_back(metadata("process_sort_index", pid, kCounterTid, {{"sort_index", pid}}));
        int next_tid = 1;
        for (const std::string& lane : process_lanes(log, processes, pid)) {
            first_tid_of_lane[{pid, lane}] = next_tid;
            const std::size_t tracks = std::max<std::size_t>(1, track_ends[{pid, lane}].size());
            for (std::size_t k = 0; k < tracks; ++k, ++next_tid) {
                const std::string name = lane_display_name(lane) + (k == 0 ? "" : " (" + std::to_string(k + 1) + ")");
                events.push_back(metadata("thread_name", pid, next_tid, {{"name", name}}));
                events.push_back(metadata("thread_sort_index", pid, next_tid, {{"sort_index", next_tid}}));
            }
        }
    }

    for (std::size_t index : order) {
        const Activity& a = log.activities[index];
        const double start_us = to_us(a.start_ms);
        const double dur_us = std::max(0.0, to_us(a.end_ms) - start_us);
        const std::string lane(a.lane);
        const int pid = processes.of(a);
        nlohmann::json args = {{"op", a.op}, {"tensors", a.tensors}, {"bytes", a.bytes}};
        if (processes.node) args["gpu"] = a.gpu;
        events.push_back({{"ph", "X"},
                          {"name", a.label.empty() && a.tensors.empty() ? lane : activity_label(a, names)},
                          {"cat", lane},
                          {"pid", pid},
                          {"tid", first_tid_of_lane.at({pid, lane}) + static_cast<int>(track_of[index])},
                          {"ts", start_us},
                          {"dur", std::round(dur_us * 1e3) / 1e3},
                          {"args", std::move(args)}});
    }

    // Counters and the boundary marker share tid 0; sorted together so its timestamps never go back.
    nlohmann::json timed = nlohmann::json::array();
    for (const MemorySample& m : log.memory) {
        timed.push_back(counter("memory in use", processes.gpu(m.gpu), m.time_ms, m.bytes_in_use));
        timed.push_back(counter("live bytes", processes.gpu(m.gpu), m.time_ms, m.live_bytes));
    }
    const int host_pid = processes.node ? processes.node_pid : kPid;
    for (const HostSample& h : log.host_memory) timed.push_back(counter("host RAM in use", host_pid, h.time_ms, h.bytes_in_use));
    if (log.budget_bytes) {
        // Each GPU's budget line over its own samples.
        for (int g = 0; g < (processes.node ? log.gpus : 1); ++g) {
            const MemorySample* first = nullptr;
            const MemorySample* last = nullptr;
            for (const MemorySample& m : log.memory) {
                if (processes.node && m.gpu != g) continue;
                if (!first || m.time_ms < first->time_ms) first = &m;
                if (!last || m.time_ms > last->time_ms) last = &m;
            }
            if (!first) continue;
            timed.push_back(counter("budget", processes.gpu(g), first->time_ms, *log.budget_bytes));
            timed.push_back(counter("budget", processes.gpu(g), last->time_ms, *log.budget_bytes));
        }
    }
    if (log.forward_end_ms >= 0) {
        timed.push_back({{"ph", "i"},
                         {"s", "g"},
                         {"name", "forward/backward boundary"},
                         {"cat", "marker"},
                         {"pid", kPid},
                         {"tid", kCounterTid},
                         {"ts", to_us(log.forward_end_ms)}});
    }
    std::stable_sort(timed.begin(), timed.end(), [](const nlohmann::json& a, const nlohmann::json& b) {
        return a["ts"].get<double>() < b["ts"].get<double>();
    });
    for (auto& event : timed) events.push_back(std::move(event));
    return {{"traceEvents", std::move(events)}, {"displayTimeUnit", "ms"}};
}

void write_chrome_trace(const EventLog& log, const std::string& path, const Workload* workload) {
    write_text_file(path, chrome_trace(log, workload).dump() + "\n");
}

}  // namespace memsim
