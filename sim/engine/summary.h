// The numbers a run answers with. Written as summary.json (with the resolved
// scenario) and as a one-line human table; sweeps gather one row per point.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "models/alloc/allocator.h"
#include "models/parallel/data_parallel.h"
#include "models/platform/tier.h"
#include "models/workload/tensor_role.h"

namespace memsim {

// The node of docs/tiers.md (platform.host.link set): per tier and per GPU.
struct NodeFigures {
    double step_time_ms = 0;  // the slowest GPU
    std::uint64_t host_peak_bytes = 0;  // host RAM: swapped tensors and bounce buffers
    std::optional<std::uint64_t> host_capacity_bytes;
    // Per tier (by id): bytes written to it, read back from it, and dropped there (their
    // tensor released, or kept on the GPU after all): bytes_to_<key>, bytes_from_<key>,
    // <key>_dropped_bytes in summary.json.
    struct Tier {
        std::uint64_t bytes_in = 0, bytes_read = 0, dropped_bytes = 0;
    };
    std::array<Tier, kTierCount> tiers{};
    // A data-parallel rank's figures (docs/parallel.md): the model state it holds of its
    // own shard, the bytes it sent in collectives, the time collectives it took part in
    // ran, and the time its GPU stream waited for one (exposed communication).
    // With the optimizer offloaded: the bytes the rank's step moved to the host and back,
    // and the time its Adam ran on the host's CPU (shared with the ranks stepping at once).
    // (model_state then counts no optimizer state: it is the host's, optimizer_state_bytes.)
    struct Offload {
        std::uint64_t bytes = 0;
        double host_step_ms = 0;
        std::uint64_t optimizer_state_bytes = 0;
    };
    struct Rank {
        ModelStates model_state;
        std::uint64_t collective_bytes = 0;
        double collective_ms = 0, exposed_collective_ms = 0;
        TransientBytes transient;  // DDP's buckets are views of the gradients: none
        std::optional<Offload> offload;
    };
    // Each GPU's own figures, GPU 0 first.
    struct Gpu {
        std::string status;
        double time_ms = 0, stall_ms = 0;
        std::uint64_t bytes_written = 0, bytes_read = 0;
        std::optional<Rank> rank;  // only under policy.data_parallel
    };
    std::optional<std::string> data_parallel;  // the ranks' settings, under policy.data_parallel
    std::vector<Gpu> gpus;
    // Each link direction on a GPU's route to the host and back, and each disk: what
    // the requests moved through it and the time at least one of them occupied it
    // (docs/tiers.md); utilisation = busy_ms / step_time_ms.
    struct Link {
        std::string name;       // the SimGrid link ("pcie0", "switch0")
        std::string direction;  // d2h (GPU to host: writes) or h2d (reads)
        double bytes_per_s = 0;
        std::uint64_t bytes = 0;
        double busy_ms = 0, utilisation = 0;
    };
    struct Disk {
        std::string name;
        std::uint64_t read_bytes = 0, write_bytes = 0;
        double busy_ms = 0, utilisation = 0;  // busy: reading or writing
    };
    std::vector<Link> links;
    std::vector<Disk> disks;
};

struct Summary {
    std::string scenario;     // scenario name
    std::string status = "ok";  // one of run_statuses() (sim/engine/run_status.h)
    std::string message;      // why the status is not ok
    std::vector<std::string> warnings;  // inert or contradictory settings (sim/app/run/run_warnings.h)
    std::string workload;
    std::string allocator;
    std::string semantics;
    std::string swap_mode;    // none | sync | semi_sync | async
    std::optional<std::uint64_t> budget_bytes;       // the budget the run had (none: unlimited)
    std::optional<double> budget_ratio;              // platform.memory.budget_ratio, when the budget came from it
    std::optional<std::uint64_t> budget_base_bytes;  // what the ratio is a fraction of: the live-bytes (os) peak
    std::uint64_t peak_bytes = 0;       // the allocator's peak footprint
    std::uint64_t live_peak_bytes = 0;  // exact live bytes peak (os view), whatever the allocator
    // The live peak split by role (tensor_role.h; every role, in kTensorRoles order), when
    // the workload says roles; absent otherwise, so summaries without roles stay as they were.
    std::optional<std::vector<std::pair<TensorRole, std::uint64_t>>> live_peak_by_role;
    // A caching allocator's own figures (torch_caching): allocated_peak_bytes,
    // reserved_peak_bytes, fragmentation_bytes, segment_count, segment_allocations.
    // fragmentation_bytes is the cached free memory when the reserved peak was first
    // reached, not reserved peak - allocated peak (the two peaks come at different moments).
    std::optional<CachingFigures> caching;
    double time_ms = 0.0;
    // The simulated clock when the run stopped (oom, thrash, host_full): time_ms then is
    // no iteration time. None when the run finished or a planner stopped it before it ran.
    std::optional<double> stopped_at_ms;
    // time_ms / the time of the same workload and platform with no memory policy at all
    // (no budget, no swap, no recompute): sim/app/run/measuring_runs.h. summary.json has
    // null unless the run finished (sim/engine/run_status.h): a stop time is no iteration time.
    double overhead = 0.0;
    double no_policy_time_ms = 0.0;
    // Operator compute the run performed on the simulated device (scaled by
    // platform.gpu.speed_scale; up to the stop for an oom or thrash run), recomputations
    // not included (recompute_ms); iteration_compute_ms is the whole iteration's.
    double compute_ms = 0.0;
    double iteration_compute_ms = 0.0;
    double stall_ms = 0.0;
    std::uint64_t bytes_written = 0;
    std::uint64_t bytes_read = 0;
    std::uint64_t swap_selected_tensors = 0;  // chosen by the swap selection before the run
    std::uint64_t swap_writes = 0;            // swap-outs (and evictions to disk) that completed
    std::uint64_t swap_reads = 0;             // swap-ins that completed
    std::uint64_t swap_writes_cancelled = 0;  // queued swap-outs dropped because their tensor was needed
    std::uint64_t swap_freed_bytes = 0;       // bytes that left device memory because their write completed
    std::uint64_t recomputed_ops = 0;
    double recompute_ms = 0.0;
    std::uint64_t evictions = 0;          // forced evictions: evictions_to_disk + drops
    std::uint64_t evictions_to_disk = 0;  // victims written to disk
    std::uint64_t drops = 0;              // victims freed, to be recomputed if needed again
    std::uint64_t ops = 0;
    std::uint64_t activities = 0;  // SimGrid activities run
    int forward_end = 0;
    std::map<std::string, double> details;  // per-mode extras (e.g. forward_ms, backward_ms)
    std::optional<NodeFigures> node;  // only with a host tier: other summaries stay as they were
};

struct Workload;

// The summary's overhead: time_ms / no_policy_time_ms to nine decimals, the precision
// it has always been reported with (both times are reported in full beside it); 0 when
// nothing ran (a planner stopped before the run). Every simulation runs on a fresh
// SimGrid clock (sim/app/run/measuring_runs.h), so a run whose budget never binds is
// exactly 1 before rounding too.
double reported_overhead(double time_ms, double no_policy_time_ms);

// How a summary names a workload: "name (batch N)", or its source file.
std::string workload_label(const Workload& w);

nlohmann::json to_json(const Summary& s);
// One human-readable block (a few aligned lines); `settings` (name, value) are the
// policy settings that shaped the run (RunHeader::settings), printed after the workload.
std::string to_table(const Summary& s, const std::vector<std::pair<std::string, std::string>>& settings = {});

}  // namespace memsim
