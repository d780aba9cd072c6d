#include "sim/app/info/workload_info.h"

#include <algorithm>

#include "models/alloc/os_allocator.h"
#include "models/alloc/pool_allocator.h"
#include "models/alloc/replay.h"

#include <map>

#include "models/workload/tensor_role.h"

namespace memsim {

namespace {

// The class an operator's name gives: the part before '[' (the synthetic GPT's
// "matmul[L3.qkv]"), else the whole name (a log's "mm", "addmm").
std::string op_class(const std::string& name) { return name.substr(0, name.find('[')); }

// flops and, per operator class, FLOPs, bytes and their ratio: only when the source
// counted them (a log without FLOPS keys has none, and a 0 would read as "no work").
void add_flop_facts(nlohmann::json& j, const Workload& w) {
    struct Totals {
        std::size_t ops = 0;
        double flops = 0, bytes = 0;
    };
    std::map<std::string, Totals> classes;
    Totals all;
    for (const Op& op : w.ops) {
        if (op.flops <= 0 && op.bytes_moved <= 0) continue;
        Totals& c = classes[op_class(op.name)];
        ++c.ops, ++all.ops;
        c.flops += op.flops, all.flops += op.flops;
        c.bytes += op.bytes_moved, all.bytes += op.bytes_moved;
    }
    if (all.ops == 0) return;
    j["flops"] = all.flops;
    j["bytes_moved"] = all.bytes;
    j["ops_with_counts"] = all.ops;
    for (const auto& [name, c] : classes)
        j["flops_by_class"][name] = {{"ops", c.ops}, {"flops", c.flops}, {"bytes", c.bytes},
                                     {"flops_per_byte", c.bytes > 0 ? c.flops / c.bytes : 0.0}};
}

}  // namespace

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
    // The same bytes under the name docs/workloads.md gives them for training steps: every
    // non-constant tensor still alive when the forward pass ends.
    j["forward_end_activation_bytes"] = fm_bytes;
    if (w.parameter_count > 0) j["parameters"] = w.parameter_count;
    std::map<TensorRole, std::uint64_t> by_role;
    for (const Tensor& t : w.tensors)
        if (t.alias_of < 0) by_role[t.role] += t.bytes;
    for (TensorRole role : kTensorRoles) j["bytes_by_role"][std::string(role_name(role))] = by_role[role];
    add_flop_facts(j, w);
    return j;
}

}  // namespace memsim
