// trace.json of real runs, read back as Perfetto / chrome://tracing would: it parses;
// every event has the fields its phase needs; one named track per lane; complete
// events never go back in time or partly overlap on a track; the memory counter
// follows events.csv; and a lane with overlapping activities is spread over tracks.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "file_support.h"
#include "trace_support.h"
#include "sim/report/chrome_trace.h"

using namespace memsim;
using namespace memsim::test;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

std::map<std::string, int> csv_records(const std::string& csv, std::map<std::string, int>& per_lane) {
    std::map<std::string, int> records;
    std::istringstream in(csv);
    std::string line;
    std::getline(in, line);
    while (std::getline(in, line)) {
        const std::string record = line.substr(0, line.find(','));
        ++records[record];
        if (record == "activity") {
            const std::size_t from = record.size() + 1;
            ++per_lane[line.substr(from, line.find(',', from) - from)];
        }
    }
    return records;
}

}  // namespace

TEST_CASE("trace.json of swap runs: every event well formed, one track per lane, memory counter") {
    for (const char* mode : {"sync", "semi_sync", "async"}) {
        INFO("swap mode " << mode);
        const fs::path dir = fresh_dir(std::string("trace_") + mode);
        const Outcome o = run_memsim(std::string("run scenarios/swap_modes.yaml -q --set policy.swap.mode=") + mode +
                                     " --set output.events=true --set output.trace=true --set output.gantt=false "
                                     "--out " + dir.string());  // swap_modes has a budget (60% of the peak)
        INFO(o.err);
        REQUIRE(o.code == 0);
        const std::string text = read_file(dir / "trace.json");
        const json trace = json::parse(text);
        // Written as text, the file is the bytes nlohmann/json's dump() gives for it: sorted
        // keys, its number and string formats (sim/report/chrome_trace.cpp).
        CHECK(trace.dump() + "\n" == text);
        const TraceCheck seen = check_trace(trace);

        std::map<std::string, int> per_lane;
        const std::map<std::string, int> records = csv_records(read_file(dir / "events.csv"), per_lane);
        CHECK(seen.complete_per_category == per_lane);  // every activity is one complete event
        std::set<std::string> names;
        for (const auto& [tid, name] : seen.thread_names) names.insert(name);
        CHECK(names == std::set<std::string>{"GPU compute", "disk write", "disk read", "stall"});
        CHECK(seen.counter_samples.at("memory in use") == records.at("memory"));
        CHECK(seen.counter_samples.at("live bytes") == records.at("memory"));
        CHECK(seen.counter_samples.at("budget") == 2);  // a flat line from the first sample to the last
        CHECK(seen.instants == 1);                      // the forward/backward boundary

        const json summary = json::parse(read_file(dir / "summary.json"));
        double last_end_us = 0;
        std::uint64_t max_in_use = 0;
        for (const json& e : trace["traceEvents"]) {
            if (e["ph"] == "X") last_end_us = std::max(last_end_us, e["ts"].get<double>() + e["dur"].get<double>());
            if (e["ph"] == "C" && e["name"] == "memory in use") max_in_use = std::max(max_in_use, e["args"]["bytes"].get<std::uint64_t>());
        }
        CHECK(last_end_us == Approx(summary["time_ms"].get<double>() * 1000).margin(0.002));  // ns-rounded
        CHECK(max_in_use == summary["peak_bytes"].get<std::uint64_t>());
    }
}

TEST_CASE("trace.json: a lane whose activities overlap gets extra tracks, never overlapping ones") {
    EventLog log;
    log.add({lane::kCompute, 0.0, 4.0, 0, "op0", {0}, 10});
    log.add({"transfer", 0.0, 2.0, 0, "a", {1}, 1});
    log.add({"transfer", 1.0, 3.0, 0, "b", {2}, 1});  // overlaps a
    log.add({"transfer", 1.5, 2.5, 0, "c", {3}, 1});  // overlaps a and b
    log.add({"transfer", 2.0, 4.0, 1, "d", {4}, 1});  // a's track is free again at 2.0
    const json trace = json::parse(chrome_trace_text(log));
    const TraceCheck seen = check_trace(trace);
    CHECK(seen.thread_names ==
          std::map<int, std::string>{{1, "GPU compute"}, {2, "transfer"}, {3, "transfer (2)"}, {4, "transfer (3)"}});
    CHECK(seen.complete_per_category == std::map<std::string, int>{{"compute", 1}, {"transfer", 4}});
    std::map<std::string, int> tid_of;
    for (const json& e : trace["traceEvents"])
        if (e["ph"] == "X") tid_of[e["name"]] = e["tid"];
    CHECK(tid_of == std::map<std::string, int>{{"op0", 1}, {"a", 2}, {"b", 3}, {"c", 4}, {"d", 2}});
}

TEST_CASE("trace.json is written as the bytes nlohmann/json's dump() gives: escapes, numbers, key order") {
    EventLog log;
    log.add({lane::kCompute, 0.1 / 3, 2.0, 0, "\"quoted\"\tcaf\u00e9 \\ 1/3", {0, 7}, 123456789012ULL});
    log.add({lane::kCompute, 2.0, 1e9, 1, "", {}, 0});  // a huge time; no label, no tensors: named by its lane
    log.sample(0.0, 10, 5, 10);
    log.sample(1e-7, 20, 15, 20);
    log.forward_end_ms = 1.0;
    log.budget_bytes = 64;
    const std::string text = chrome_trace_text(log);
    CHECK(json::parse(text).dump() == text);
    CHECK(text.find(R"({"args":{"bytes":123456789012,"op":0,"tensors":[0,7]},"cat":"compute","dur":1966.667,)"
                    R"("name":"\"quoted\"\tcafé \\ 1/3","ph":"X","pid":1,"tid":1,"ts":33.333})") != std::string::npos);
    CHECK(text.find(R"("ts":1e-07})") == std::string::npos);  // rounded to the nanosecond: 0.0
    CHECK(text.find(R"({"cat":"marker","name":"forward/backward boundary","ph":"i","pid":1,"s":"g","tid":0,"ts":1000.0})") !=
          std::string::npos);
}

TEST_CASE("trace.json of a node of two GPUs: one process per GPU and one for the node's links and host RAM") {
    const fs::path dir = fresh_dir("trace_node");
    std::ofstream(dir / "node.yaml") <<
               "name: node_trace\nworkload: {synthetic: mlp}\nplatform: {gpus: 2, gpus_per_switch: 2, switch: {bandwidth: 16GB/s}, "
               "host: {link: {bandwidth: 16GB/s, latency: 1us}}, disk: {bandwidth: 2GB/s}}\n"
               "policy: {swap: {mode: async, placement: host}}\n";
    const Outcome o = run_memsim("run " + (dir / "node.yaml").string() +
                                 " -q --set output.events=true --set output.trace=true --set output.gantt=false --out " +
                                 (dir / "out").string());
    INFO(o.err);
    REQUIRE(o.code == 0);
    const std::string text = read_file(dir / "out" / "trace.json");
    const json trace = json::parse(text);
    CHECK(trace.dump() + "\n" == text);
    const TraceCheck seen = check_trace(trace);
    CHECK(seen.process_names == std::map<int, std::string>{{1, "GPU 0"}, {2, "GPU 1"}, {3, "node"}});

    std::map<std::string, int> per_lane;
    const std::map<std::string, int> records = csv_records(read_file(dir / "out" / "events.csv"), per_lane);
    CHECK(seen.complete_per_category == per_lane);  // every activity, of both GPUs and the node's lanes
    std::map<int, std::set<std::string>> lanes_of;
    for (const auto& [track, name] : seen.tracks) lanes_of[track.first].insert(name.substr(0, name.find(" (")));
    CHECK(lanes_of[1] == std::set<std::string>{"GPU compute", "host_write", "host_read", "stall"});
    CHECK(lanes_of[2] == lanes_of[1]);
    CHECK(lanes_of[3] == std::set<std::string>{"pcie0 d2h", "pcie0 h2d", "pcie1 d2h", "pcie1 h2d", "switch0 d2h", "switch0 h2d"});
    // Each GPU's memory counter in its process, host RAM in the node's.
    std::map<std::pair<int, std::string>, int> counters;
    for (const json& e : trace["traceEvents"])
        if (e["ph"] == "C") ++counters[{e["pid"].get<int>(), e["name"].get<std::string>()}];
    CHECK(counters[{1, "memory in use"}] + counters[{2, "memory in use"}] == records.at("memory"));
    CHECK(counters[{1, "memory in use"}] == counters[{2, "memory in use"}]);  // the same replica
    CHECK(counters[{3, "host RAM in use"}] == records.at("host_memory"));
    CHECK(counters.count({1, "host RAM in use"}) == 0);
}
