#include "sim/report/gantt_series.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "sim/report/memory_kinds.h"

namespace memsim {

namespace {
// Fills of memory by kind: pale, so the in-use, live and budget lines stay readable on top.
const char* const kKindColors[kMemoryKinds] = {"#c9c3bf", "#a0cbe8", "#ffbe7d", "#d4a6c8", "#ff9d9a", "#8cd17d",
                                               "#b6992d", "#f1ce63", "#d7b5a6"};
}  // namespace

double gantt_round_ns(double ms) {
    const double r = std::round(ms * 1e6) / 1e6;
    return r == 0.0 ? 0.0 : r;
}

nlohmann::json gantt_memory_series(const EventLog& log, double& end_ms) {
    std::vector<MemorySample> samples = log.memory;
    std::stable_sort(samples.begin(), samples.end(),
                     [](const MemorySample& a, const MemorySample& b) { return a.time_ms < b.time_ms; });
    nlohmann::json memory = nlohmann::json::array();
    for (const MemorySample& m : samples) {
        if (log.reports_allocated) memory.push_back({gantt_round_ns(m.time_ms), m.bytes_in_use, m.live_bytes, m.allocated_bytes});
        else memory.push_back({gantt_round_ns(m.time_ms), m.bytes_in_use, m.live_bytes});
        end_ms = std::max(end_ms, m.time_ms);
    }
    return memory;
}

nlohmann::json gantt_memory_kinds(const EventLog& log, const Workload& workload, double& end_ms) {
    const std::vector<MemoryByKindRow> rows = memory_by_kind(log, workload);
    std::vector<std::size_t> used;
    for (std::size_t k = 0; k < kMemoryKinds; ++k)
        if (std::any_of(rows.begin(), rows.end(), [&](const MemoryByKindRow& r) { return r.bytes[k] > 0; })) used.push_back(k);
    if (used.empty()) return nullptr;
    nlohmann::json kinds = {{"names", nlohmann::json::array()}, {"colors", nlohmann::json::array()}, {"rows", nlohmann::json::array()}};
    for (std::size_t k : used) {
        kinds["names"].push_back(memory_kind_name(static_cast<MemoryKind>(k)));
        kinds["colors"].push_back(kKindColors[k]);
    }
    for (const MemoryByKindRow& r : rows) {
        nlohmann::json row = {gantt_round_ns(r.time_ms)};
        for (std::size_t k : used) row.push_back(r.bytes[k]);
        kinds["rows"].push_back(std::move(row));
        end_ms = std::max(end_ms, r.time_ms);
    }
    return kinds;
}

}  // namespace memsim
