// Data-parallel training on the node (docs/parallel.md): the N GPUs of platform.gpus are
// ranks of one training step. What a rank holds (ZeRO's sharding of parameters,
// gradients and optimizer state), how its gradients are grouped into buckets that are
// reduced while the backward goes on, and which collectives the step needs. Plain
// functions of the workload; the engine (sim/engine/collectives.h) runs the collectives
// as SimGrid flows and the ranks' GPU streams wait on them.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "models/workload/workload.h"

namespace memsim {

// PyTorch DDP's default bucket_cap_mb (25), in bytes as DDP computes it (MiB).
inline constexpr std::uint64_t kDefaultBucketBytes = 25ull * 1024 * 1024;

enum class CollectiveKind : std::uint8_t { all_reduce, reduce_scatter, all_gather };
std::string_view collective_name(CollectiveKind k);

// One ZeRO stage (policy.data_parallel.zero), a row of zero_stages.cpp: what each rank
// keeps only 1/N of, and the collective that reduces a gradient bucket.
struct ZeroStage {
    int stage = 0;
    const char* summary = "";
    bool shards_optimizer_state = false;
    bool shards_gradients = false;
    bool shards_parameters = false;
    CollectiveKind gradient_collective = CollectiveKind::all_reduce;
    // After the optimizer step each rank holds updated parameters for its shard only:
    // the parameters are all-gathered (ZeRO-1 and 2).
    bool gathers_updated_parameters = false;
};
std::span<const ZeroStage> zero_stages();
// The row of stage `zero`, or nullptr.
const ZeroStage* zero_stage(int zero);

// policy.data_parallel as the engine runs it.
struct DataParallelSpec {
    int zero = 0;
    std::optional<std::uint64_t> bucket_bytes = kDefaultBucketBytes;  // none: `whole`, one bucket after the backward
    bool offload_optimizer = false;                                   // offload: optimizer
    std::string algorithm = "ring";                                   // a row of collective_algorithms()
};

// Model state by role (ZeRO's P, G and O times the parameter count), each storage once.
struct ModelStates {
    std::uint64_t parameter = 0, gradient = 0, optimizer_state = 0;
    [[nodiscard]] std::uint64_t total() const { return parameter + gradient + optimizer_state; }
};
ModelStates model_states(const Workload& w);
// A rank's transient buffers (docs/parallel.md, "Transient buffers"): what it holds only
// while a collective needs it, beyond its model state. The most of each kind live at once
// (full parameters an all-gather brought back, full gradients awaiting their
// reduce-scatter), and the most of both at once.
enum class TransientKind : std::uint8_t { none, gathered_parameter, unreduced_gradient };
struct TransientBytes {
    std::uint64_t gathered_parameters = 0, unreduced_gradients = 0, peak = 0;
};
// A rank's padded partition of `bytes`: ceil(bytes / ranks).
std::uint64_t shard_bytes(std::uint64_t bytes, int ranks);

// The optimizer step: ops from the first that reads or writes an optimizer-state tensor
// to the end of the workload; empty (first == size) when the workload has no such op.
int first_step_op(const Workload& w);

// What a rank holds of the model state under `stage` on `ranks` GPUs, ZeRO's rule: each
// tensor of a sharded role counts ceil(bytes / ranks) (a padded partition), the others in
// full. (P+G+O)Ψ, PΨ+GΨ+OΨ/N, PΨ+(G+O)Ψ/N, (P+G+O)Ψ/N for stages 0 to 3.
ModelStates rank_model_states(const Workload& w, const ZeroStage& stage, int ranks);

// The workload one rank runs under `stage` (0 to 3) on `ranks` GPUs. Sharding the
// optimizer state (1, 2) keeps ceil(bytes / ranks) of each optimizer-state tensor and
// shards the step: its ops cost 1/ranks and its temporaries (outputs that are not model
// state, scratch) are 1/ranks as big. Sharding gradients (2) adds a shard tensor per
// gradient storage the backward completes (a constant of ceil(bytes / ranks), role
// gradient, arriving just after the op that completes its bucket of `bucket_bytes`,
// when its reduce-scatter is issued) that the step reads and writes instead; `full_gradient_of[shard]` names the
// storage it is the shard of (-1 for every other tensor), and the step no longer releases
// the full gradients: the engine frees each when its bucket's reduce-scatter ends.
// Sharding parameters (3) does the same for each parameter storage (its shard a constant
// from the start, read and updated by the step) and makes the full parameter a buffer
// that is not resident at the start: the engine allocates it when its gather is issued
// and frees it after its stretch of use (`gathers`).
// Tensor and op ids of `w` are kept.
//
// With the optimizer offloaded (ZeRO-Offload) the step leaves the GPU: its ops stay, as
// ops of no cost that read, write and release nothing, the optimizer state is not on the
// GPU (no longer a constant there), and `offload` says what the host does instead.
// The host's Adam per parameter (DeepSpeed's CPU Adam on fp32 master weights): about 14
// flops (the two moment updates, the bias corrections, the square root, the division and
// the weight decay), and 30 bytes moved (reading the fp32 weight, gradient and two
// moments, writing the weight, the moments and the fp16 copy sent back).
inline constexpr double kAdamFlopsPerParameter = 14;
inline constexpr double kAdamBytesPerParameter = 30;
struct OffloadStep {
    std::uint64_t gradient_bytes = 0;         // the rank's gradient partition, GPU to host
    std::uint64_t parameter_bytes = 0;        // its updated parameters, host to GPU
    std::uint64_t optimizer_state_bytes = 0;  // its optimizer state, in host RAM all along
    double parameters = 0;                    // parameters it updates (Ψ / N)
};
// ZeRO-3: the parameters one all-gather brings back for one stretch of use (the ops of
// the forward, or of the backward, that read them): issued before op `issue_op` (the
// previous stretch's first op: the next layer's parameters are prefetched while a layer
// computes), awaited before `first_op`; each storage freed after its own last read of
// the stretch (`last_ops`, parallel to `storages`).
struct ParameterGather {
    std::vector<TensorId> storages;
    std::vector<int> last_ops;
    std::uint64_t bytes = 0;
    int issue_op = 0, first_op = 0;
};
struct RankWorkload {
    Workload workload;
    std::vector<TensorId> full_gradient_of;  // empty unless gradients are sharded
    std::optional<OffloadStep> offload;      // offload: optimizer
    std::vector<ParameterGather> gathers;    // ZeRO-3, by first_op
};
// The parameters of the step: the source's count where it has one (the synthetic gpt),
// else the parameters' bytes at 4 bytes each (fp32, as a traced log's are).
double parameter_count(const Workload& w);
RankWorkload shard_for_rank(const Workload& w, const ZeroStage& stage, int ranks, std::optional<std::uint64_t> bucket_bytes,
                            bool offload_optimizer = false);

// Gradient buckets in the order the backward completes them: a storage whose role is
// gradient is complete after the last op that produces a tensor in it; storages are
// added in that order until a bucket holds at least `bucket_bytes` (none: all in one).
struct GradientBucket {
    std::vector<TensorId> storages;
    std::uint64_t bytes = 0;
    int ready_after_op = -1;  // the op whose end completes the bucket
};
struct BucketPlan {
    std::vector<GradientBucket> buckets;
    std::vector<int> bucket_of_storage;  // per tensor id: its bucket, -1 when none
};
BucketPlan plan_gradient_buckets(const Workload& w, std::optional<std::uint64_t> bucket_bytes);

}  // namespace memsim
