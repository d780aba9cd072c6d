// Labels and memory by kind, worked out by hand on the journey fixture: what events.csv
// says for each activity and instant event, and what the live bytes are made of.
#include <catch2/catch.hpp>

#include <sstream>

#include "output_fixtures.h"
#include "sim/report/activity_labels.h"
#include "sim/report/events_csv.h"
#include "sim/report/memory_kinds.h"

using namespace memsim;
using namespace memsim::test;

namespace {

// The `label` column of every activity and mark row, in order.
std::vector<std::string> labels_in(const std::string& csv) {
    std::vector<std::string> labels;
    std::istringstream in(csv);
    std::string line;
    std::getline(in, line);
    while (std::getline(in, line)) {
        if (line.rfind("activity,", 0) != 0 && line.rfind("mark,", 0) != 0) continue;
        // Columns: record, lane, start, end, duration, op, label (maybe quoted), ...
        std::size_t at = 0;
        for (int k = 0; k < 6; ++k) at = line.find(',', at) + 1;
        if (line[at] == '"') labels.push_back(line.substr(at + 1, line.find('"', at + 1) - at - 1));
        else labels.push_back(line.substr(at, line.find(',', at) - at));
    }
    return labels;
}

}  // namespace

TEST_CASE("events.csv labels say what each activity moves, waits for or recomputes") {
    const Workload w = journey_workload();
    const std::vector<std::string> labels = labels_in(events_csv(journey_log(), &w));
    CHECK(labels == std::vector<std::string>{
                        "conv",
                        "swap out tensor a1 (3.91 KiB)",
                        "relu",
                        "wait for tensor a1 (swap-in)",
                        "swap in tensor a1 (3.91 KiB)",
                        "recompute op 1 (relu) for tensor a2",
                        "relu_grad",
                        "conv_grad",
                        "evict tensor a1 (3.91 KiB) to disk",
                        "cancel the swap-out of tensor a2 (3.91 KiB): needed again first",
                        "drop tensor a2 (3.91 KiB): recomputed when needed",
                    });
}

TEST_CASE("events.csv mark rows: kind, time, op, tensor and bytes") {
    const Workload w = journey_workload();
    const std::string csv = events_csv(journey_log(), &w);
    CHECK(csv.find("mark,evict_to_disk,2.000000,,,1,evict tensor a1 (3.91 KiB) to disk,2,4000,,,\n") != std::string::npos);
    CHECK(csv.find("mark,drop,4.000000,,,2,drop tensor a2 (3.91 KiB): recomputed when needed,3,4000,,,\n") != std::string::npos);
}

TEST_CASE("labels without the workload: tensors by id, disk rows by the name the log has") {
    const EventLog log = journey_log();
    const TensorNames none;
    CHECK(activity_label(log.activities[1], none) == "swap out tensor a1 (3.91 KiB)");
    CHECK(activity_label(log.activities[3], none) == "wait for tensor #2 (swap-in)");
    CHECK(activity_label(log.activities[5], none) == "recompute op 1 (relu) for tensor #3");
    Activity sync_wait{lane::kStall, 0, 1, 4, "waiting for swap-outs (sync)", {1, 2, 3, 4, 5}, 0};
    CHECK(activity_label(sync_wait, none) == "wait for tensors #1, #2, #3 and 2 more (swap-outs, sync)");
    Activity unknown_wait{lane::kStall, 0, 1, 4, "waiting for the disk", {}, 0};
    CHECK(activity_label(unknown_wait, none) == "waiting for the disk");
}

TEST_CASE("memory by kind of the journey fixture, worked out by hand") {
    const Workload w = journey_workload();
    const EventLog log = journey_log();
    const std::vector<MemoryByKindRow> rows = memory_by_kind(log, w);
    REQUIRE(!rows.empty());
    // The state after the last change at each instant: weights, activations, gradients, scratch, to disk, from disk.
    auto at = [&](double t) {
        const MemoryByKindRow* last = nullptr;
        for (const MemoryByKindRow& r : rows)
            if (r.time_ms <= t) last = &r;
        REQUIRE(last != nullptr);
        return last->bytes;
    };
    using B = std::array<std::uint64_t, kMemoryKinds>;
    CHECK(at(0) == B{3000, 4000, 0, 0, 0, 0});
    CHECK(at(2) == B{3000, 4000, 0, 500, 4000, 0});  // a1 being written, a2 and tmp taken
    CHECK(at(4) == B{3000, 0, 0, 0, 4000, 0});       // tmp freed, a2 dropped
    CHECK(at(5) == B{3000, 0, 0, 0, 0, 4000});       // write done, a1's read took its memory
    CHECK(at(7) == B{3000, 8000, 0, 0, 0, 0});       // read done, a2 recomputed
    CHECK(at(9) == B{3000, 8000, 3000, 0, 0, 0});
    CHECK(at(11) == B{3000, 0, 0, 0, 0, 0});
    // Every row adds up to the live bytes sampled at the same instant (the engine's own count).
    for (const MemorySample& m : log.memory) {
        const B kinds = at(m.time_ms);
        std::uint64_t sum = 0;
        for (std::uint64_t b : kinds) sum += b;
        INFO("t = " << m.time_ms);
        if (&m == &log.memory.back() || log.memory[static_cast<std::size_t>(&m - &log.memory[0]) + 1].time_ms > m.time_ms)
            CHECK(sum == m.live_bytes);
    }
}

TEST_CASE("memory by kind fills by role where the workload says roles") {
    Workload w = journey_workload();
    w.tensors[0].role = TensorRole::parameter;  // w
    w.tensors[1].role = TensorRole::input;      // x
    w.tensors[4].role = TensorRole::gradient;   // g; a1 and a2 keep the rule (activations)
    const std::vector<MemoryByKindRow> rows = memory_by_kind(journey_log(), w);
    REQUIRE(!rows.empty());
    using B = std::array<std::uint64_t, kMemoryKinds>;
    // At 0: w 1000 B (parameters), x 2000 B (inputs), a1 4000 B (activations).
    CHECK(rows.front().time_ms == 0);
    const auto at = [&](double t) {
        B last{};
        for (const MemoryByKindRow& r : rows)
            if (r.time_ms <= t) last = r.bytes;
        return last;
    };
    CHECK(at(0) == B{0, 4000, 0, 0, 0, 0, 1000, 0, 2000});
    CHECK(at(9) == B{0, 8000, 3000, 0, 0, 0, 1000, 0, 2000});  // g: a gradient by role and by the rule alike
    CHECK(std::string(memory_kind_name(MemoryKind::OptimizerState)) == "optimizer state");
}

TEST_CASE("memory by kind is empty when the log has no residency changes") {
    EventLog log;
    log.sample(0, 10, 10, 10);
    CHECK(memory_by_kind(log, journey_workload()).empty());
}
