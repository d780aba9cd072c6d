#include "report/chrome_trace.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>

#include "report/activity_labels.h"
#include "report/lanes.h"
#include "report/text_format.h"

namespace memsim {

namespace {

constexpr int kPid = 1;
constexpr int kCounterTid = 0;

// Rounded to the nanosecond so that float noise does not leak into the file.
double to_us(double ms) {
    const double us = std::round(ms * 1e6) / 1e3;
    return us == 0.0 ? 0.0 : us;
}

nlohmann::json metadata(const char* name, int tid, nlohmann::json args) {
    return {{"ph", "M"}, {"name", name}, {"pid", kPid}, {"tid", tid}, {"ts", 0}, {"args", std::move(args)}};
}

nlohmann::json counter(const char* name, double time_ms, std::uint64_t bytes) {
    return {{"ph", "C"},  {"name", name},           {"cat", "memory"},
            {"pid", kPid}, {"tid", kCounterTid}, {"ts", to_us(time_ms)}, {"args", {{"bytes", bytes}}}};
}

}  // namespace

nlohmann::json chrome_trace(const EventLog& log, const Workload* workload) {
    const TensorNames names(workload);
    nlohmann::json events = nlohmann::json::array();
    events.push_back(metadata("process_name", kCounterTid, {{"name", "memsim"}}));

    // Per track, events must come in start order; a stable sort keeps the log order for ties.
    std::vector<std::size_t> order(log.activities.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return log.activities[a].start_ms < log.activities[b].start_ms;
    });

    // Complete events on one track must not partly overlap (viewers expect them nested). The
    // known lanes never overlap; a lane that does (a new kind, concurrent transfers) gets extra
    // tracks "name (2)", "name (3)", each activity on the first track free at its start.
    const std::vector<std::string> lanes = ordered_lanes(log);
    std::map<std::string, std::vector<double>> track_ends;  // per lane: when each of its tracks is free
    std::vector<std::size_t> track_of(log.activities.size(), 0);
    for (std::size_t index : order) {
        const Activity& a = log.activities[index];
        std::vector<double>& ends = track_ends[std::string(a.lane)];
        const double start = to_us(a.start_ms), end = std::max(start, to_us(a.end_ms));
        std::size_t k = 0;
        while (k < ends.size() && ends[k] > start) ++k;
        if (k == ends.size()) ends.push_back(end);
        else ends[k] = end;
        track_of[index] = k;
    }
    std::map<std::string, int> first_tid_of_lane;
    int next_tid = 1;
    for (const std::string& lane : lanes) {
        first_tid_of_lane[lane] = next_tid;
        const std::size_t tracks = std::max<std::size_t>(1, track_ends[lane].size());
        for (std::size_t k = 0; k < tracks; ++k, ++next_tid) {
            const std::string name = lane_display_name(lane) + (k == 0 ? "" : " (" + std::to_string(k + 1) + ")");
            events.push_back(metadata("thread_name", next_tid, {{"name", name}}));
            events.push_back(metadata("thread_sort_index", next_tid, {{"sort_index", next_tid}}));
        }
    }

    for (std::size_t index : order) {
        const Activity& a = log.activities[index];
        const double start_us = to_us(a.start_ms);
        const double dur_us = std::max(0.0, to_us(a.end_ms) - start_us);
        const std::string lane(a.lane);
        events.push_back({{"ph", "X"},
                          {"name", a.label.empty() && a.tensors.empty() ? lane : activity_label(a, names)},
                          {"cat", lane},
                          {"pid", kPid},
                          {"tid", first_tid_of_lane.at(lane) + static_cast<int>(track_of[index])},
                          {"ts", start_us},
                          {"dur", std::round(dur_us * 1e3) / 1e3},
                          {"args", {{"op", a.op}, {"tensors", a.tensors}, {"bytes", a.bytes}}}});
    }

    // Counters and the boundary marker share tid 0; sorted together so its timestamps never go back.
    nlohmann::json timed = nlohmann::json::array();
    for (const MemorySample& m : log.memory) {
        timed.push_back(counter("memory in use", m.time_ms, m.bytes_in_use));
        timed.push_back(counter("live bytes", m.time_ms, m.live_bytes));
    }
    for (const HostSample& h : log.host_memory) timed.push_back(counter("host RAM in use", h.time_ms, h.bytes_in_use));
    if (log.budget_bytes && !log.memory.empty()) {
        const auto [first, last] = std::minmax_element(
            log.memory.begin(), log.memory.end(),
            [](const MemorySample& a, const MemorySample& b) { return a.time_ms < b.time_ms; });
        timed.push_back(counter("budget", first->time_ms, *log.budget_bytes));
        timed.push_back(counter("budget", last->time_ms, *log.budget_bytes));
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
