#include "sim/report/chrome_trace.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <set>
#include <utility>

#include <nlohmann/json.hpp>

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

// The file is written as text, event by event, in the bytes nlohmann/json's dump() gives
// for the same document (keys in sorted order, its number and string formats): the
// document built as a json value took 0.11 s for MobilenetV2's 2.8 MB trace (std::map
// objects for 30k events), most of a sweep point that writes it. Scalars still go
// through nlohmann/json, so numbers and escapes are its own; test_trace_json.cpp checks
// that parsing and dumping the text gives it back unchanged.
class TraceText {
public:
    explicit TraceText(std::string& out) : out_(out) {}
    // Appends `"key":` (a comma before it unless it opens its object).
    TraceText& key(const char* name) {
        if (!first_) out_ += ',';
        first_ = false;
        out_ += '"';
        out_ += name;
        out_ += "\":";
        return *this;
    }
    template <typename T>
    TraceText& value(const T& v) {
        out_ += nlohmann::json(v).dump();
        return *this;
    }
    TraceText& open() {
        out_ += '{';
        first_ = true;
        return *this;
    }
    TraceText& close() {
        out_ += '}';
        first_ = false;
        return *this;
    }

private:
    std::string& out_;
    bool first_ = true;
};

// {"args":{ARG_KEY:ARG},"name":NAME,"ph":"M","pid":PID,"tid":TID,"ts":0}
template <typename Arg>
void metadata(std::string& out, const char* name, int pid, int tid, const char* arg_key, const Arg& arg) {
    TraceText t(out);
    t.open().key("args").open().key(arg_key).value(arg).close();
    t.key("name").value(name).key("ph").value("M").key("pid").value(pid).key("tid").value(tid).key("ts").value(0).close();
}

// A counter ("C") or the boundary marker ("i"), sorted by time before they are written.
struct TimedEvent {
    double ts_us = 0;
    const char* name = "";
    int pid = 0;
    std::uint64_t bytes = 0;
    bool marker = false;
};

void write_timed(std::string& out, const TimedEvent& e) {
    TraceText t(out);
    if (e.marker) {
        t.open().key("cat").value("marker").key("name").value(e.name).key("ph").value("i").key("pid").value(e.pid);
        t.key("s").value("g").key("tid").value(kCounterTid).key("ts").value(e.ts_us).close();
        return;
    }
    t.open().key("args").open().key("bytes").value(e.bytes).close();
    t.key("cat").value("memory").key("name").value(e.name).key("ph").value("C").key("pid").value(e.pid);
    t.key("tid").value(kCounterTid).key("ts").value(e.ts_us).close();
}

TimedEvent counter(const char* name, int pid, double time_ms, std::uint64_t bytes) {
    return {to_us(time_ms), name, pid, bytes, false};
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

std::string chrome_trace_text(const EventLog& log, const Workload* workload) {
    const TensorNames names(workload);
    const Processes processes(log);
    std::string out = "{\"displayTimeUnit\":\"ms\",\"traceEvents\":[";
    bool first_event = true;
    const auto next_event = [&]() -> std::string& {
        if (!first_event) out += ',';
        first_event = false;
        return out;
    };

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
        metadata(next_event(), "process_name", pid, kCounterTid, "name", process_name);
        if (processes.node) metadata(next_event(), "process_sort_index", pid, kCounterTid, "sort_index", pid);
        int next_tid = 1;
        for (const std::string& lane : process_lanes(log, processes, pid)) {
            first_tid_of_lane[{pid, lane}] = next_tid;
            const std::size_t tracks = std::max<std::size_t>(1, track_ends[{pid, lane}].size());
            for (std::size_t k = 0; k < tracks; ++k, ++next_tid) {
                const std::string name = lane_display_name(lane) + (k == 0 ? "" : " (" + std::to_string(k + 1) + ")");
                metadata(next_event(), "thread_name", pid, next_tid, "name", name);
                metadata(next_event(), "thread_sort_index", pid, next_tid, "sort_index", next_tid);
            }
        }
    }

    for (std::size_t index : order) {
        const Activity& a = log.activities[index];
        const double start_us = to_us(a.start_ms);
        const double dur_us = std::max(0.0, to_us(a.end_ms) - start_us);
        const std::string lane(a.lane);
        const int pid = processes.of(a);
        TraceText t(next_event());
        t.open().key("args").open().key("bytes").value(a.bytes);
        if (processes.node) t.key("gpu").value(a.gpu);
        t.key("op").value(a.op).key("tensors").value(a.tensors).close();
        t.key("cat").value(lane).key("dur").value(std::round(dur_us * 1e3) / 1e3);
        t.key("name").value(a.label.empty() && a.tensors.empty() ? lane : activity_label(a, names));
        t.key("ph").value("X").key("pid").value(pid);
        t.key("tid").value(first_tid_of_lane.at({pid, lane}) + static_cast<int>(track_of[index]));
        t.key("ts").value(start_us).close();
    }

    // Counters and the boundary marker share tid 0; sorted together so its timestamps never go back.
    std::vector<TimedEvent> timed;
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
    if (log.forward_end_ms >= 0) timed.push_back({to_us(log.forward_end_ms), "forward/backward boundary", kPid, 0, true});
    std::stable_sort(timed.begin(), timed.end(), [](const TimedEvent& a, const TimedEvent& b) { return a.ts_us < b.ts_us; });
    for (const TimedEvent& event : timed) write_timed(next_event(), event);
    out += "]}";
    return out;
}

void write_chrome_trace(const EventLog& log, const std::string& path, const Workload* workload) {
    write_text_file(path, chrome_trace_text(log, workload) + "\n");
}

}  // namespace memsim
