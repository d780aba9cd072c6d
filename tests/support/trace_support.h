// Reads a trace.json as Perfetto / chrome://tracing would and checks every event against
// the Trace Event Format: the fields each phase needs, named tracks, non-decreasing time
// and disjoint complete events per track. Returns what it saw, for the caller's counts.
#pragma once

#include <catch2/catch.hpp>

#include <map>
#include <string>
#include <utility>

#include <nlohmann/json.hpp>

namespace memsim::test {

struct TraceCheck {
    std::map<int, std::string> thread_names;            // tid -> track name, of process 1
    std::map<std::pair<int, int>, std::string> tracks;  // (pid, tid) -> track name, every process
    std::map<int, std::string> process_names;           // pid -> name
    std::map<std::string, int> complete_per_category;   // lane -> X events
    std::map<std::string, int> counter_samples;         // counter name -> C events
    int instants = 0;
};

// Checks every event of a trace against the Trace Event Format and returns what it saw.
inline TraceCheck check_trace(const nlohmann::json& trace) {
    TraceCheck seen;
    REQUIRE(trace.is_object());
    REQUIRE(trace.contains("traceEvents"));
    REQUIRE(trace["traceEvents"].is_array());
    CHECK(trace.value("displayTimeUnit", "") == "ms");
    std::map<std::pair<int, int>, double> last_ts, last_end;
    for (const nlohmann::json& e : trace["traceEvents"]) {
        INFO(e.dump());
        REQUIRE(e.is_object());
        REQUIRE(e["ph"].is_string());
        REQUIRE(e["name"].is_string());
        REQUIRE(e["pid"].is_number_integer());
        REQUIRE(e["tid"].is_number_integer());
        REQUIRE(e["ts"].is_number());
        const std::string ph = e["ph"];
        const int tid = e["tid"];
        if (ph == "M") {
            REQUIRE(e["args"].is_object());
            if (e["name"] == "thread_name") {
                REQUIRE(e["args"]["name"].is_string());
                CHECK(seen.tracks.emplace(std::make_pair(e["pid"].get<int>(), tid), e["args"]["name"]).second);  // one name per track
                if (e["pid"] == 1) seen.thread_names.emplace(tid, e["args"]["name"]);
            }
            if (e["name"] == "process_name") {
                REQUIRE(e["args"]["name"].is_string());
                CHECK(seen.process_names.emplace(e["pid"].get<int>(), e["args"]["name"]).second);
            }
            continue;
        }
        const auto track = std::make_pair(e["pid"].get<int>(), tid);
        const double ts = e["ts"];
        CHECK(ts >= 0);
        if (last_ts.count(track)) CHECK(ts >= last_ts[track]);  // non-decreasing per track
        last_ts[track] = ts;
        if (ph == "X") {
            REQUIRE(e["dur"].is_number());
            const double dur = e["dur"];
            CHECK(dur >= 0);
            REQUIRE(e["cat"].is_string());
            REQUIRE(e["args"].is_object());
            CHECK(e["args"]["op"].is_number_integer());
            CHECK(e["args"]["tensors"].is_array());
            CHECK(e["args"]["bytes"].is_number_unsigned());
            REQUIRE(seen.tracks.count(track) == 1);  // its track was named before
            // Complete events on one track are disjoint (touching is fine): viewers nest overlapping ones.
            if (last_end.count(track)) CHECK(ts >= last_end[track] - 1e-6);
            last_end[track] = ts + dur;
            ++seen.complete_per_category[e["cat"]];
        } else if (ph == "C") {
            REQUIRE(e["args"].is_object());
            REQUIRE(e["args"]["bytes"].is_number_unsigned());
            ++seen.counter_samples[e["name"]];
        } else {
            REQUIRE(ph == "i");
            CHECK(e["s"] == "g");
            ++seen.instants;
        }
    }
    return seen;
}

}  // namespace memsim::test
