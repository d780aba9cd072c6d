// The numbers a run answers with. Written as summary.json (with the resolved
// scenario) and as a one-line human table; sweeps gather one row per point.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

namespace memsim {

struct Summary {
    std::string scenario;     // scenario name
    std::string status = "ok";  // ok | oom | thrash | error
    std::string message;      // why the status is not ok
    std::string workload;
    std::string allocator;
    std::string semantics;
    std::string swap_mode;    // none | sync | semi_sync | async
    std::uint64_t peak_bytes = 0;       // the allocator's peak footprint
    std::uint64_t live_peak_bytes = 0;  // exact live bytes peak (os view), whatever the allocator
    double time_ms = 0.0;
    double compute_ms = 0.0;  // sum of operator costs (no recompute), at speed scale 1
    double stall_ms = 0.0;
    std::uint64_t bytes_written = 0;
    std::uint64_t bytes_read = 0;
    std::uint64_t swapped_tensors = 0;
    std::uint64_t recomputed_ops = 0;
    double recompute_ms = 0.0;
    std::uint64_t evictions = 0;
    std::uint64_t ops = 0;
    std::uint64_t activities = 0;  // SimGrid activities run
    int forward_end = 0;
    std::map<std::string, double> details;  // per-mode extras (e.g. forward_ms, backward_ms)
};

struct Workload;

// How a summary names a workload: "name (batch N)", or its source file.
std::string workload_label(const Workload& w);

nlohmann::json to_json(const Summary& s);
// One human-readable block (a few aligned lines).
std::string to_table(const Summary& s);

}  // namespace memsim
