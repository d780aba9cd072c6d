#include "sim/summary.h"

#include <fmt/format.h>

#include "models/workload/workload.h"

namespace memsim {

std::string workload_label(const Workload& w) {
    return w.name.empty() ? w.source : fmt::format("{} (batch {})", w.name, w.batch);
}

nlohmann::json to_json(const Summary& s) {
    nlohmann::json j;
    j["scenario"] = s.scenario;
    j["status"] = s.status;
    if (!s.message.empty()) j["message"] = s.message;
    j["workload"] = s.workload;
    j["allocator"] = s.allocator;
    j["semantics"] = s.semantics;
    j["swap_mode"] = s.swap_mode;
    j["peak_bytes"] = s.peak_bytes;
    j["live_peak_bytes"] = s.live_peak_bytes;
    j["time_ms"] = s.time_ms;
    j["compute_ms"] = s.compute_ms;
    j["stall_ms"] = s.stall_ms;
    j["bytes_written"] = s.bytes_written;
    j["bytes_read"] = s.bytes_read;
    j["swapped_tensors"] = s.swapped_tensors;
    j["recomputed_ops"] = s.recomputed_ops;
    j["recompute_ms"] = s.recompute_ms;
    j["evictions"] = s.evictions;
    j["ops"] = s.ops;
    j["activities"] = s.activities;
    j["forward_end"] = s.forward_end;
    j["details"] = s.details;
    return j;
}

static std::string mib(std::uint64_t bytes) { return fmt::format("{:.3f} MiB", static_cast<double>(bytes) / (1024.0 * 1024.0)); }

std::string to_table(const Summary& s) {
    std::string out;
    out += fmt::format("scenario   {}  [{}]\n", s.scenario, s.status);
    if (!s.message.empty()) out += fmt::format("message    {}\n", s.message);
    out += fmt::format("workload   {}  ({} ops, forward_end {})\n", s.workload, s.ops, s.forward_end);
    out += fmt::format("policy     allocator={} semantics={} swap={}\n", s.allocator, s.semantics, s.swap_mode);
    out += fmt::format("peak       {} B ({})   live peak {} B\n", s.peak_bytes, mib(s.peak_bytes), s.live_peak_bytes);
    out += fmt::format("time       {:.3f} ms   compute {:.3f} ms   stall {:.3f} ms\n", s.time_ms, s.compute_ms, s.stall_ms);
    out += fmt::format("disk       written {} B   read {} B   swapped tensors {}\n", s.bytes_written, s.bytes_read,
                       s.swapped_tensors);
    out += fmt::format("recompute  {} ops   {:.3f} ms   evictions {}\n", s.recomputed_ops, s.recompute_ms, s.evictions);
    return out;
}

}  // namespace memsim
