#include "sim/engine/summary.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "models/workload/workload.h"
#include "sim/engine/run_status.h"

namespace memsim {

std::string workload_label(const Workload& w) {
    if (w.name.empty()) return w.source;
    // A DTR log has no batch (the loader sets 0): its file name says what it is.
    return w.batch > 0 ? fmt::format("{} (batch {})", w.name, w.batch) : w.name;
}

double reported_overhead(double time_ms, double no_policy_time_ms) {
    return no_policy_time_ms > 0 ? std::round(time_ms / no_policy_time_ms * 1e9) / 1e9 : 0.0;
}

namespace {

template <typename T>
nlohmann::json or_null(const std::optional<T>& value) {
    return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

std::string mib(std::uint64_t bytes) { return fmt::format("{:.3f} MiB", static_cast<double>(bytes) / (1024.0 * 1024.0)); }

// The node's lines (docs/tiers.md): the step, the tiers, each GPU, each link direction and disk.
std::string node_table(const NodeFigures& n) {
    std::string out = fmt::format("node       {} GPUs   step {:.3f} ms   host RAM peak {} B{}\n", n.gpus.size(), n.step_time_ms,
                                  n.host_peak_bytes,
                                  n.host_capacity_bytes ? fmt::format(" of {} B", *n.host_capacity_bytes) : std::string());
    std::vector<std::string> tiers;  // every row of the tier table, nearest first
    for (TierId t = 0; t < kTierCount; ++t)
        tiers.push_back(
            fmt::format("to {0} {1} B   from {0} {2} B", tier_row(t).key, n.tiers[t].bytes_in, n.tiers[t].bytes_read));
    out += fmt::format("tiers      {}\n", fmt::join(tiers, "   "));
    if (n.data_parallel) out += fmt::format("parallel   {}\n", *n.data_parallel);
    for (std::size_t g = 0; g < n.gpus.size(); ++g) {
        out += fmt::format("gpu {:<6} [{}] {:.3f} ms   stall {:.3f} ms   written {} B   read {} B\n", g, n.gpus[g].status,
                           n.gpus[g].time_ms, n.gpus[g].stall_ms, n.gpus[g].bytes_written, n.gpus[g].bytes_read);
        if (const std::optional<NodeFigures::Rank>& r = n.gpus[g].rank)
            out += fmt::format(
                "           model state {} B (parameters {} B, gradients {} B, optimizer state {} B)   "
                "collectives {} B sent, {:.3f} ms, exposed {:.3f} ms\n",
                r->model_state.total(), r->model_state.parameter, r->model_state.gradient, r->model_state.optimizer_state,
                r->collective_bytes, r->collective_ms, r->exposed_collective_ms);
        if (const std::optional<NodeFigures::Rank>& r = n.gpus[g].rank)
            out += fmt::format("           transient peak {} B (gathered parameters {} B, unreduced gradients {} B)\n",
                               r->transient.peak, r->transient.gathered_parameters, r->transient.unreduced_gradients);
        if (const std::optional<NodeFigures::Rank>& r = n.gpus[g].rank; r && r->offload)
            out += fmt::format(
                "           offload: optimizer state {} B in host RAM, {} B to the host and back, Adam on the "
                "host {:.3f} ms\n",
                r->offload->optimizer_state_bytes, r->offload->bytes, r->offload->host_step_ms);
    }
    for (const NodeFigures::Link& l : n.links)
        out += fmt::format("link       {} {}   {} B   busy {:.3f} ms ({:.1f}%)\n", l.name, l.direction, l.bytes, l.busy_ms,
                           100 * l.utilisation);
    for (const NodeFigures::Disk& d : n.disks)
        out += fmt::format("disk       {}   written {} B   read {} B   busy {:.3f} ms ({:.1f}%)\n", d.name, d.write_bytes,
                           d.read_bytes, d.busy_ms, 100 * d.utilisation);
    return out;
}

}  // namespace

nlohmann::json to_json(const Summary& s) {
    nlohmann::json j;
    j["scenario"] = s.scenario;
    j["status"] = s.status;
    if (!s.message.empty()) j["message"] = s.message;
    j["warnings"] = s.warnings;
    j["workload"] = s.workload;
    j["allocator"] = s.allocator;
    j["semantics"] = s.semantics;
    j["swap_mode"] = s.swap_mode;
    j["budget_bytes"] = or_null(s.budget_bytes);
    j["budget_ratio"] = or_null(s.budget_ratio);
    j["budget_base_bytes"] = or_null(s.budget_base_bytes);
    j["peak_bytes"] = s.peak_bytes;
    j["live_peak_bytes"] = s.live_peak_bytes;
    if (s.live_peak_by_role) {
        nlohmann::json roles = nlohmann::json::object();
        for (const auto& [role, bytes] : *s.live_peak_by_role) roles[std::string(role_name(role))] = bytes;
        j["live_peak_by_role"] = roles;
    }
    if (s.caching) {  // only for an allocator that has them: the other summaries stay as they were
        j["allocated_peak_bytes"] = s.caching->allocated_peak_bytes;
        j["reserved_peak_bytes"] = s.caching->reserved_peak_bytes;
        j["fragmentation_bytes"] = s.caching->fragmentation_bytes;
        j["segment_count"] = s.caching->segment_count;
        j["segment_allocations"] = s.caching->segment_allocations;
    }
    j["time_ms"] = s.time_ms;
    if (s.stopped_at_ms) j["stopped_at_ms"] = *s.stopped_at_ms;
    j["overhead"] = status_finished(s.status) ? nlohmann::json(s.overhead) : nlohmann::json(nullptr);
    j["no_policy_time_ms"] = s.no_policy_time_ms;
    j["compute_ms"] = s.compute_ms;
    j["iteration_compute_ms"] = s.iteration_compute_ms;
    j["stall_ms"] = s.stall_ms;
    j["bytes_written"] = s.bytes_written;
    j["bytes_read"] = s.bytes_read;
    j["swap_selected_tensors"] = s.swap_selected_tensors;
    j["swap_writes"] = s.swap_writes;
    j["swap_reads"] = s.swap_reads;
    j["swap_writes_cancelled"] = s.swap_writes_cancelled;
    j["swap_freed_bytes"] = s.swap_freed_bytes;
    j["recomputed_ops"] = s.recomputed_ops;
    j["recompute_ms"] = s.recompute_ms;
    j["evictions"] = s.evictions;
    j["evictions_to_disk"] = s.evictions_to_disk;
    j["drops"] = s.drops;
    j["ops"] = s.ops;
    j["activities"] = s.activities;
    j["forward_end"] = s.forward_end;
    j["details"] = s.details;
    if (s.node) {
        const NodeFigures& n = *s.node;
        j["step_time_ms"] = n.step_time_ms;
        j["host_peak_bytes"] = n.host_peak_bytes;
        j["host_capacity_bytes"] = or_null(n.host_capacity_bytes);
        for (TierId t = 0; t < kTierCount; ++t) {
            const std::string key(tier_row(t).key);
            j["bytes_to_" + key] = n.tiers[t].bytes_in;
            j["bytes_from_" + key] = n.tiers[t].bytes_read;
            j[key + "_dropped_bytes"] = n.tiers[t].dropped_bytes;
        }
        if (n.data_parallel) j["data_parallel"] = *n.data_parallel;
        j["gpus"] = nlohmann::json::array();
        for (std::size_t g = 0; g < n.gpus.size(); ++g) {
            nlohmann::json gpu{{"gpu", g},
                               {"status", n.gpus[g].status},
                               {"time_ms", n.gpus[g].time_ms},
                               {"stall_ms", n.gpus[g].stall_ms},
                               {"bytes_written", n.gpus[g].bytes_written},
                               {"bytes_read", n.gpus[g].bytes_read}};
            if (const std::optional<NodeFigures::Rank>& r = n.gpus[g].rank) {
                gpu["model_state_bytes"] = {{"parameter", r->model_state.parameter},
                                            {"gradient", r->model_state.gradient},
                                            {"optimizer_state", r->model_state.optimizer_state}};
                gpu["collective_bytes"] = r->collective_bytes;
                gpu["collective_ms"] = r->collective_ms;
                gpu["exposed_collective_ms"] = r->exposed_collective_ms;
                gpu["transient_bytes"] = {{"gathered_parameters", r->transient.gathered_parameters},
                                          {"unreduced_gradients", r->transient.unreduced_gradients},
                                          {"peak", r->transient.peak}};
                if (r->offload) {
                    gpu["offload_bytes"] = r->offload->bytes;
                    gpu["host_step_ms"] = r->offload->host_step_ms;
                    gpu["host_optimizer_state_bytes"] = r->offload->optimizer_state_bytes;
                }
            }
            j["gpus"].push_back(std::move(gpu));
        }
        j["links"] = nlohmann::json::array();
        for (const NodeFigures::Link& l : n.links)
            j["links"].push_back({{"name", l.name}, {"direction", l.direction}, {"bandwidth_bytes_per_s", l.bytes_per_s},
                                  {"bytes", l.bytes}, {"busy_ms", l.busy_ms}, {"utilisation", l.utilisation}});
        j["disks"] = nlohmann::json::array();
        for (const NodeFigures::Disk& d : n.disks)
            j["disks"].push_back({{"name", d.name}, {"read_bytes", d.read_bytes}, {"write_bytes", d.write_bytes},
                                  {"busy_ms", d.busy_ms}, {"utilisation", d.utilisation}});
    }
    return j;
}

std::string to_table(const Summary& s, const std::vector<std::pair<std::string, std::string>>& settings) {
    std::string out;
    out += fmt::format("scenario   {}  [{}]\n", s.scenario, s.status);
    if (!s.message.empty()) out += fmt::format("message    {}\n", s.message);
    for (const std::string& w : s.warnings) out += fmt::format("warning    {}\n", w);
    out += fmt::format("workload   {}  ({} ops, forward_end {})\n", s.workload, s.ops, s.forward_end);
    if (settings.empty()) {
        out += fmt::format("policy     allocator={} semantics={} swap={}\n", s.allocator, s.semantics, s.swap_mode);
    } else {
        for (const auto& [name, value] : settings)
            if (name != "workload") out += fmt::format("{:<10} {}\n", name, value);  // the line above says it
    }
    out += fmt::format("peak       {} B ({})   live peak {} B\n", s.peak_bytes, mib(s.peak_bytes), s.live_peak_bytes);
    if (s.live_peak_by_role) {
        std::string split;
        for (const auto& [role, bytes] : *s.live_peak_by_role)
            if (bytes > 0) split += fmt::format("   {} {} B", role_name(role), bytes);
        out += fmt::format("by role   {}\n", split.empty() ? "   (nothing live)" : split);
    }
    if (s.caching)
        // fragmentation_bytes is the cache's free bytes at one moment, not the difference
        // of the two peaks (which come at different moments): both are said, by name.
        out += fmt::format("caching    allocated peak {} B   reserved peak {} B (peaks differ by {} B)   cached free {} B ({}) "
                           "in {} segments when the reserved peak was first reached   {} segment allocations\n",
                           s.caching->allocated_peak_bytes, s.caching->reserved_peak_bytes,
                           s.caching->reserved_peak_bytes - std::min(s.caching->reserved_peak_bytes, s.caching->allocated_peak_bytes),
                           s.caching->fragmentation_bytes, mib(s.caching->fragmentation_bytes), s.caching->segment_count,
                           s.caching->segment_allocations);
    // A run that stopped has no iteration time, so no overhead: its clock says when it stopped.
    if (s.status == "ok")
        out += fmt::format("time       {:.3f} ms   overhead {:.4f}x of {:.3f} ms with no memory policy\n", s.time_ms, s.overhead,
                           s.no_policy_time_ms);
    else
        out += fmt::format("time       stopped ({}) at {:.3f} ms: no iteration time, no overhead ({:.3f} ms with no memory policy)\n",
                           s.status, s.time_ms, s.no_policy_time_ms);
    out += fmt::format("compute    {:.3f} ms{}   stall {:.3f} ms\n", s.compute_ms,
                       s.compute_ms == s.iteration_compute_ms ? std::string()
                                                              : fmt::format(" of the iteration's {:.3f} ms", s.iteration_compute_ms),
                       s.stall_ms);
    out += fmt::format("swapping   selected {}   written {}   read back {}   writes cancelled {}   freed {} B\n",
                       s.swap_selected_tensors, s.swap_writes, s.swap_reads, s.swap_writes_cancelled, s.swap_freed_bytes);
    out += fmt::format("disk I/O   written {} B   read {} B\n", s.bytes_written, s.bytes_read);
    out += fmt::format("evictions  {} ({} to disk, {} dropped)\n", s.evictions, s.evictions_to_disk, s.drops);
    out += fmt::format("recompute  {} ops   {:.3f} ms\n", s.recomputed_ops, s.recompute_ms);
    if (s.node) out += node_table(*s.node);
    return out;
}

}  // namespace memsim
