#include "sim/app/info/workload_info.h"

#include <algorithm>

#include "models/alloc/os_allocator.h"
#include "models/alloc/pool_allocator.h"
#include "models/alloc/replay.h"

namespace memsim {

nlohmann::json workload_info(const Workload& w, double disk_bytes_per_s) {
    OsAllocator os;
    PoolAllocator pool;
    const std::uint64_t fm_bytes = feature_map_bytes(w);
    nlohmann::json j;
    j["workload"] = w.name;
    j["source"] = w.source;
    if (w.batch > 0) j["batch"] = w.batch;  // a DTR log has no batch size (not "batch 0")
    j["ops"] = w.ops.size();
    j["tensors"] = w.tensors.size();
    j["forward_end"] = w.forward_end;
    j["forward_end_rule"] = w.forward_end_rule;
    if (!w.cost_note.empty()) j["cost_model"] = w.cost_note;
    // Roles, micro-batches and the model's own recomputation (docs/workloads.md, "Roles";
    // docs/tracing.md): only where the source says something.
    if (!w.role_rule.empty()) j["role_rule"] = w.role_rule;
    if (!w.micro_batches.empty()) j["micro_batches"] = w.micro_batches.size();
    const auto rerun = std::count_if(w.ops.begin(), w.ops.end(), [](const Op& op) { return op.recomputes != kNoOp; });
    if (rerun > 0) j["model_recomputed_ops"] = rerun;
    j["compute_ms"] = w.compute_ms();
    j["feature_maps"] = feature_maps(w).size();
    j["feature_map_bytes"] = fm_bytes;
    j["oracle_peak_bytes"] = replay_peak(w, os);
    j["pool_peak_bytes"] = replay_peak(w, pool);
    j["disk_bytes_per_s"] = disk_bytes_per_s;
    j["swap_time_lower_bound_ms"] = 2.0 * static_cast<double>(fm_bytes) / disk_bytes_per_s * 1e3;
    return j;
}

}  // namespace memsim
