// events.csv and trace.json read back: exact CSV for a tiny log; a trace that parses,
// has every required field, one named track per lane, and non-decreasing time per track.
#include <catch2/catch.hpp>

#include <filesystem>
#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "file_support.h"
#include "sim/report/chrome_trace.h"
#include "sim/report/events_csv.h"
#include "sim/report/lanes.h"
#include "sim/report/outputs.h"
#include "trace_support.h"

using namespace memsim;
using namespace memsim::test;

namespace {

EventLog tiny_log() {
    EventLog log;
    log.add({lane::kCompute, 0.0, 1.5, 0, "conv1", {1, 2}, 1024});
    log.add(swap_activity(kDiskTier, true, 1.5, 2.25, 0, "t,1", {1}, 512));  // the engine names a disk activity's tensor
    log.add({lane::kCompute, 1.5, 3.0, 1, "conv1_grad", {2, 3}, 2048});
    log.add(swap_activity(kDiskTier, false, 2.25, 2.5, 1, "t\"1\"", {1}, 512));
    log.mark(mark::kCancelWrite, 2.0, 1, 1, 512);
    log.sample(0.0, 1024, 1024, 1024);
    log.sample(1.5, 3072, 2048, 3072);
    log.budget_bytes = 4096;
    log.forward_end_ms = 1.5;
    return log;
}

}  // namespace

TEST_CASE("events.csv of a tiny log is exactly this") {
    const std::string expected =
        "record,lane,start_ms,end_ms,duration_ms,op,label,tensors,bytes,bytes_in_use,live_bytes,budget_bytes\n"
        "activity,compute,0.000000,1.500000,1.500000,0,conv1,1;2,1024,,,\n"
        "activity,disk_write,1.500000,2.250000,0.750000,0,\"swap out tensor t,1 (512 B)\",1,512,,,\n"
        "activity,compute,1.500000,3.000000,1.500000,1,conv1_grad,2;3,2048,,,\n"
        "activity,disk_read,2.250000,2.500000,0.250000,1,\"swap in tensor t\"\"1\"\" (512 B)\",1,512,,,\n"
        "mark,cancel_write,2.000000,,,1,cancel the swap-out of tensor #1 (512 B): needed again first,1,512,,,\n"
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
    const auto dir = fresh_dir("trace");
    OutputSpec output;
    output.on = {"events", "trace"};
    CHECK(write_run_outputs(log, Summary{}, "tiny", dir.string(), output) ==
          std::vector<std::string>{(dir / "events.csv").string(), (dir / "trace.json").string()});
    REQUIRE(std::filesystem::exists(dir / "events.csv"));
    REQUIRE_FALSE(std::filesystem::exists(dir / "gantt.html"));

    const nlohmann::json trace = nlohmann::json::parse(read_file(dir / "trace.json"));
    const TraceCheck seen = check_trace(trace);
    CHECK(seen.complete_per_category == std::map<std::string, int>{
                                   {"compute", 2}, {"disk_write", 1}, {"disk_read", 1}, {"prefetch_hint", 1}});
    CHECK(seen.thread_names == std::map<int, std::string>{
                              {1, "GPU compute"}, {2, "disk write"}, {3, "disk read"}, {4, "prefetch_hint"}});
    std::set<std::string> counters;
    for (const auto& [name, samples] : seen.counter_samples) counters.insert(name);
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
    CHECK(nlohmann::json::parse(chrome_trace_text(tiny_log())).dump() ==
          nlohmann::json::parse(chrome_trace_text(tiny_log())).dump());
    CHECK(events_csv(tiny_log()) == events_csv(tiny_log()));
}
