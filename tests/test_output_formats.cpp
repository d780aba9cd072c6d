// events.csv and trace.json read back: exact CSV for a tiny log; a trace that parses,
// has every required field, one named track per lane, and non-decreasing time per track.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <unistd.h>

#include <nlohmann/json.hpp>

#include "sim/output/chrome_trace.h"
#include "sim/output/events_csv.h"
#include "sim/output/lanes.h"
#include "sim/output/outputs.h"

using namespace memsim;

namespace {

EventLog tiny_log() {
    EventLog log;
    log.add({lane::kCompute, 0.0, 1.5, 0, "conv1", {1, 2}, 1024});
    log.add({lane::kDiskWrite, 1.5, 2.25, 0, "swap out, t1", {1}, 512});
    log.add({lane::kCompute, 1.5, 3.0, 1, "conv1_grad", {2, 3}, 2048});
    log.add({lane::kDiskRead, 2.25, 2.5, 1, "swap in \"t1\"", {1}, 512});
    log.sample(0.0, 1024, 1024);
    log.sample(1.5, 3072, 2048);
    log.budget_bytes = 4096;
    log.forward_end_ms = 1.5;
    return log;
}

std::string read_file(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

}  // namespace

TEST_CASE("events.csv of a tiny log is exactly this") {
    const std::string expected =
        "record,lane,start_ms,end_ms,duration_ms,op,label,tensors,bytes,bytes_in_use,live_bytes,budget_bytes\n"
        "activity,compute,0.000000,1.500000,1.500000,0,conv1,1;2,1024,,,\n"
        "activity,disk_write,1.500000,2.250000,0.750000,0,\"swap out, t1\",1,512,,,\n"
        "activity,compute,1.500000,3.000000,1.500000,1,conv1_grad,2;3,2048,,,\n"
        "activity,disk_read,2.250000,2.500000,0.250000,1,\"swap in \"\"t1\"\"\",1,512,,,\n"
        "memory,,0.000000,,,,,,,1024,1024,4096\n"
        "memory,,1.500000,,,,,,,3072,2048,4096\n"
        "marker,,1.500000,,,,forward_end,,,,,\n";
    CHECK(events_csv(tiny_log()) == expected);
}

TEST_CASE("lanes: known kinds in fixed order, new kinds after them sorted") {
    EventLog log;
    log.add({"zeta", 0, 1, -1, "z", {}, 0});
    log.add({lane::kStall, 0, 1, -1, "s", {}, 0});
    log.add({"alpha", 0, 1, -1, "a", {}, 0});
    log.add({lane::kCompute, 0, 1, 0, "c", {}, 0});
    CHECK(ordered_lanes(log) == std::vector<std::string>{"compute", "stall", "alpha", "zeta"});
}

TEST_CASE("trace.json parses, has the required fields and non-decreasing time per track") {
    EventLog log = tiny_log();
    log.add({"prefetch_hint", 0.5, 0.75, 2, "new kind", {}, 0});  // a lane no renderer knows
    const auto dir = std::filesystem::temp_directory_path() / ("memsim_test_" + std::to_string(::getpid())) / "trace";
    std::filesystem::remove_all(dir);
    write_run_outputs(log, Summary{}, "tiny", dir.string(), true, false, true);
    REQUIRE(std::filesystem::exists(dir / "events.csv"));
    REQUIRE_FALSE(std::filesystem::exists(dir / "gantt.html"));

    const nlohmann::json trace = nlohmann::json::parse(read_file(dir / "trace.json"));
    REQUIRE(trace.contains("traceEvents"));
    std::map<std::pair<int, int>, double> last_ts;
    std::map<int, std::string> thread_names;
    std::map<std::string, int> complete_per_lane;
    std::set<std::string> counters;
    for (const auto& e : trace["traceEvents"]) {
        INFO(e.dump());
        REQUIRE(e.contains("ph"));
        REQUIRE(e.contains("name"));
        REQUIRE(e["pid"].is_number_integer());
        REQUIRE(e["tid"].is_number_integer());
        REQUIRE(e["ts"].is_number());
        const std::string ph = e["ph"];
        const int tid = e["tid"];
        if (ph == "M") {
            if (e["name"] == "thread_name") thread_names[tid] = e["args"]["name"];
            continue;
        }
        const auto track = std::make_pair(e["pid"].get<int>(), tid);
        const double ts = e["ts"];
        if (last_ts.count(track)) CHECK(ts >= last_ts[track]);
        last_ts[track] = ts;
        if (ph == "X") {
            REQUIRE(e["dur"].is_number());
            CHECK(e["dur"].get<double>() >= 0);
            REQUIRE(e["cat"].is_string());
            REQUIRE(e["args"].contains("op"));
            REQUIRE(e["args"].contains("tensors"));
            REQUIRE(e["args"].contains("bytes"));
            REQUIRE(thread_names.count(tid) == 1);  // metadata comes first
            ++complete_per_lane[e["cat"]];
        } else if (ph == "C") {
            REQUIRE(e["args"].is_object());
            counters.insert(e["name"]);
        } else {
            CHECK(ph == "i");
        }
    }
    CHECK(complete_per_lane == std::map<std::string, int>{
                                   {"compute", 2}, {"disk_write", 1}, {"disk_read", 1}, {"prefetch_hint", 1}});
    CHECK(thread_names == std::map<int, std::string>{
                              {1, "GPU compute"}, {2, "disk write"}, {3, "disk read"}, {4, "prefetch_hint"}});
    CHECK(counters == std::set<std::string>{"memory in use", "live bytes", "budget"});
    // microseconds: the disk write starts at 1.5 ms
    bool found = false;
    for (const auto& e : trace["traceEvents"])
        if (e["ph"] == "X" && e["cat"] == "disk_write") {
            CHECK(e["ts"].get<double>() == 1500.0);
            CHECK(e["dur"].get<double>() == 750.0);
            found = true;
        }
    CHECK(found);
}

TEST_CASE("the same log gives the same bytes") {
    CHECK(chrome_trace(tiny_log()).dump() == chrome_trace(tiny_log()).dump());
    CHECK(events_csv(tiny_log()) == events_csv(tiny_log()));
}
