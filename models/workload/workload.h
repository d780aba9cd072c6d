// The replayable description of one training iteration, whatever its source
// (MNN profile, DTR log, synthetic generator). Plain value types, validated once
// by the loader; the engine never re-validates.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "models/workload/dtype.h"
#include "models/workload/op_list.h"
#include "models/workload/tensor_role.h"

namespace memsim {

using TensorId = int;
inline constexpr int kNoOp = -1;

struct Tensor {
    std::string name;        // as named by the source ("17", "17:0", "x81310")
    std::uint64_t bytes = 0;
    int producer = kNoOp;    // op index that creates it; kNoOp for constants / inputs
    bool scratch = false;    // temporary workspace living inside its producer
    bool constant = false;   // resident from the start, never evicted (weights, inputs)
    // For aliasing results (DTR logs): the tensor whose storage this one shares.
    // An alias takes no memory of its own.
    TensorId alias_of = -1;
    TensorRole role = TensorRole::other;  // what it is to the step (models/workload/tensor_role.h)
};

// A scratch event of an operator, in source order.
struct ScratchEvent {
    bool alloc = true;  // false: free
    TensorId tensor = -1;
};

struct Op {
    std::string name;
    double cost_ms = 0.0;
    // Each list holds its first two entries (one scratch event) without a heap block
    // (models/workload/op_list.h).
    OpList<TensorId, 2> inputs;
    OpList<TensorId, 2> outputs;
    OpList<ScratchEvent, 1> scratch;  // allocs happen before compute, frees after
    OpList<TensorId, 2> release;      // freed after the op (last use)
    // Constants that become resident just before this op (DTR logs declare constants
    // mid-way); every other constant is resident before op 0.
    OpList<TensorId, 2> arrivals;
    // The forward op this op re-runs in the backward (the model's own activation
    // checkpointing: torch.utils.checkpoint in a trace, a synthetic model's checkpointing
    // mode); kNoOp for every other op.
    int recomputes = kNoOp;
    // What the device model needs (docs/gpu_model.md); 0 / unknown where the source does
    // not say (a log's optional FLOPS, BYTES and DTYPE keys; the synthetic GPT step).
    Dtype dtype = Dtype::unknown;
    double flops = 0.0;        // floating-point operations, a multiply-add counted as 2
    double bytes_moved = 0.0;  // bytes the kernel reads plus bytes it writes
};

// One micro-batch of a step with gradient accumulation: its ops are
// [first_op, next micro-batch's first_op), its forward pass [first_op, forward_end).
struct MicroBatch {
    int first_op = 0;
    int forward_end = 0;
};

struct Workload {
    std::string name;    // e.g. "MobilenetV2"
    std::string source;  // path or "synthetic:..." for messages
    int batch = 0;
    std::vector<Tensor> tensors;
    std::vector<Op> ops;
    int forward_end = 0;          // ops [0, forward_end) are the forward pass
    std::string forward_end_rule; // how forward_end was obtained ("scenario", "inferred: ...")
    // Gradient accumulation: one entry per micro-batch, in order (empty: one micro-batch,
    // described by forward_end alone). The optimizer step follows the last one.
    std::vector<MicroBatch> micro_batches;
    // How the tensors' roles were decided (recorded by the source, or which inference
    // rule; docs/workloads.md, "Roles"); "" where the source sets none.
    std::string role_rule;
    std::string cost_note;        // where costs came from when not measured for this batch ("" = measured)
    std::uint64_t parameter_count = 0;  // trainable parameters, where the source counts them (synthetic gpt); 0: unknown
    // DTR logs only: the tensors the published runtime requests once more at the end of
    // the log (made resident, then kept), in its order: names in first-binding order, a
    // name re-bound by MUTATE or COPY_FROM keeping its place, one entry per name (a tensor
    // with several names appears several times; the first does the work). Only the loader
    // knows the log's names, so it records the list here for the engine (dtr semantics)
    // and the reference runtime to use as is. Absent for other sources: see
    // end_of_iteration_requests.
    std::optional<std::vector<TensorId>> end_of_log_requests;

    [[nodiscard]] double compute_ms() const;
    [[nodiscard]] std::size_t op_count() const { return ops.size(); }
    [[nodiscard]] std::size_t tensor_count() const { return tensors.size(); }
    // Tensors that are resident before op 0 runs (constants without a later arrival).
    [[nodiscard]] std::vector<TensorId> initial_tensors() const;
};

// Storages and views (docs/workloads.md, "Storages and views"): a view (a DTR log's
// ALIAS result) shares the storage of the tensor it aliases and takes no memory;
// swapping, dropping, recomputing, pinning and the allocator act on storages, and a read
// of any view reads its storage.
// The storage tensor t lives in (t itself when it is not a view). Alias chains point
// backwards and the loaders check them; the bound keeps a workload built in code from
// looping.
TensorId storage_of(const Workload& w, TensorId t);
// storage_of for every tensor, indexed by tensor id.
std::vector<TensorId> storage_map(const Workload& w);
[[nodiscard]] bool has_views(const Workload& w);
// Whether some tensor has a role other than `other` (the source said, or memsim inferred).
[[nodiscard]] bool has_roles(const Workload& w);
// The storages op reads (its inputs' storages, first occurrence kept, in order).
std::vector<TensorId> storages_read(const Workload& w, const Op& op);
// The workload as its storages are read: every op's inputs replaced by the storages they
// live in (first occurrence kept, in order), everything else unchanged, tensor and op
// ids kept. What the swap selections, prefetch rules, the hybrid rule and the recompute
// planners plan on, so that a storage read later only through a view counts as read.
Workload with_storage_reads(const Workload& w);

// Inclusive lifetime of one tensor in operator indices (usage record: docs/planners.md).
struct UsageRecord {
    TensorId tensor = -1;
    std::uint64_t bytes = 0;
    int first_op = 0;
    int last_op = 0;
};

// Every tensor that takes memory (outputs and scratch, aliases excluded), in order of
// first use; never-released tensors live until the last op.
std::vector<UsageRecord> usage_records(const Workload& w);

// What a run under dtr semantics requests once more after the last op (docs/recompute.md,
// "DTR semantics", rule 6): the log's own list when the workload carries one; otherwise
// (profiles, synthetic workloads: no log, no names) the tensors the iteration still holds
// at its end - in no op's release list, scratch excluded - in tensor order.
std::vector<TensorId> end_of_iteration_requests(const Workload& w);

// Feature maps: produced in the forward pass, still alive when it ends.
std::vector<TensorId> feature_maps(const Workload& w);
std::uint64_t feature_map_bytes(const Workload& w);

// Constants (weights and inputs a DTR log declares; aliases excluded): how many, and
// their bytes.
struct ConstantTotals {
    std::size_t count = 0;
    std::uint64_t bytes = 0;
};
ConstantTotals constant_totals(const Workload& w);

}  // namespace memsim
