// The machine a run simulates, as a scenario's platform section (or a file in configs/)
// describes it: the GPU's speed, the disk it swaps to, and its device memory. Plain
// data, read by the scenario parser (sim/scenario/) and handed to the engine in its
// EngineConfig; the engine builds its SimGrid resources from it (sim/engine/platform.h), and
// every transfer time is asked of the disk's TransferModel (transfer_model.h).
//
// Each resource is a struct of its own. The node of docs/tiers.md (several GPUs, host
// RAM behind per-GPU PCIe links and optional switch uplinks, disks on the host) is
// described by the fields after `disk`; left unset they keep today's platform, one GPU
// swapping straight to its disk.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "models/platform/gpu_spec.h"
#include "models/platform/tier.h"

namespace memsim {

// The profiled phone's disk: 104094472 bytes in 4.452 s (the default disk).
inline constexpr double kPhoneDiskBytes = 104094472.0;
inline constexpr double kPhoneDiskSeconds = 4.452;
inline constexpr double kPhoneDiskBytesPerS = kPhoneDiskBytes / kPhoneDiskSeconds;

// One storage tier reached over one link: a transfer takes the direction's latency plus
// its bytes over the direction's bandwidth (a read goes to the device, a write from it).
struct DiskSpec {
    double read_bytes_per_s = kPhoneDiskBytesPerS;
    double write_bytes_per_s = kPhoneDiskBytesPerS;
    double read_latency_ms = 0.0;
    double write_latency_ms = 0.0;
};

// One tier as data (docs/tiers.md), a row of PlatformSpec::tiers() indexed by TierId, built
// by the platform from its keys: its name and key (its kTierRows row), its capacity, and
// how a GPU reaches it: a flow on the GPU's route to the host (routes[gpu]: bandwidth and
// latency each way), then, for a tier on devices of its own, that device's I/O (GPU i
// uses devices[i mod count], each with a bandwidth and latency per direction; SimGrid
// disks named <key>0, <key>1 on the host), staged through a host buffer on the bounce
// path when `staged_by_path`, streamed with the flow otherwise.
// GPU g of a node uses device g mod n of a tier with n devices (docs/tiers.md): one rule
// for the platform, the transfer queues and their predictions.
inline std::size_t device_index(int gpu, std::size_t devices) { return static_cast<std::size_t>(gpu) % devices; }

struct TierSpec {
    std::string_view name;
    std::string_view key;
    std::optional<std::uint64_t> capacity;  // none: unlimited
    std::vector<DiskSpec> routes;           // per GPU (empty without a node)
    std::vector<DiskSpec> devices;  // empty: the route alone (host RAM)
    bool staged_by_path = false;
    // memsim counts the bytes placed there (its capacity binds, the placement rules see its
    // free bytes); a disk's space is not modelled.
    bool holds_space = false;

    // The device GPU `gpu` uses (devices must not be empty).
    [[nodiscard]] const DiskSpec& device_of(int gpu) const { return devices[device_index(gpu, devices.size())]; }
};

// A full-duplex link (PCIe): each direction has the bandwidth on its own.
struct LinkSpec {
    double bytes_per_s = 0;
    double latency_ms = 0;
};

// A PCIe link as a tier's route: the same bandwidth and latency both ways (full duplex).
inline DiskSpec link_tier(const LinkSpec& link) { return {link.bytes_per_s, link.bytes_per_s, link.latency_ms, link.latency_ms}; }

// platform.host.cpu: the host's CPU as the optimizer offloaded to it sees it
// (docs/parallel.md): its floating-point rate and its memory bandwidth, each shared by
// the ranks whose steps run at once.
struct HostCpuSpec {
    double flops = 0;
    double memory_bytes_per_s = 0;
};

// The upper bound of platform.gpus: a node, not a cluster (docs/tiers.md).
inline constexpr int kMaxGpus = 64;

struct PlatformSpec {
    std::string name = "default";
    double gpu_speed_scale = 1.0;
    // platform.gpu.preset / peak_flops / memory_bandwidth / launch_overhead: the device
    // model that times operators under workload.costs: device (docs/gpu_model.md).
    std::optional<GpuSpec> gpu_model;
    DiskSpec disk;  // platform.disk, or the first of platform.disks
    // platform.disks: more disks on the host; GPU i swaps to disk i mod the count. Empty:
    // the one `disk`.
    std::vector<DiskSpec> disks;
    int gpus = 1;  // platform.gpus: data-parallel replicas of the workload
    // platform.host.memory: host RAM for swapped tensors (unset: unlimited).
    std::optional<std::uint64_t> host_memory;
    // platform.host.link: each GPU's PCIe link to the host. Unset: no host tier, a GPU
    // swaps straight to its disk (today's model).
    std::optional<LinkSpec> host_link;
    // platform.gpus_per_switch + platform.switch.bandwidth: groups of GPUs share one
    // uplink (full duplex) to the host. 0: every link goes straight to the host.
    int gpus_per_switch = 0;
    double switch_bytes_per_s = 0;
    double gpu_offset_ms = 0;  // platform.gpu_offset_ms: GPU i starts at i times this
    // platform.nvlink: each GPU's link to an NVSwitch (full duplex, this bandwidth each
    // way; the latency is the link's, so GPU to GPU crosses two). Unset: GPU-to-GPU
    // traffic goes through PCIe (docs/parallel.md).
    std::optional<LinkSpec> nvlink;
    std::optional<HostCpuSpec> host_cpu;  // platform.host.cpu
    // platform.file: a SimGrid XML platform (docs/tiers.md names its hosts and disks).
    // Its GPUs, disks and routes are read into `gpus`, `disks` and `file_routes` by the
    // scenario parser (sim/scenario/platform_xml.h), which also writes the checked file
    // out as `simgrid_xml`: the engine gives SimGrid that text, never the path, so SimGrid
    // loads what was checked and opens nothing else.
    std::string simgrid_file;
    std::string simgrid_xml;
    // With a file: GPU i's route to the host as a tier (write: GPU -> host, read: host
    // -> GPU), the route's smallest link bandwidth and its summed latency.
    std::vector<DiskSpec> file_routes;
    // With a file: the first pair of GPUs it gives no route ("element 'route src=...':
    // missing: ..."), empty when every GPU reaches every other (data-parallel ranks need it).
    std::string file_unrouted_gpu_pair;
    std::optional<std::uint64_t> memory_budget;
    // platform.memory.budget_ratio: the budget as a fraction of the workload's live-bytes
    // (os) peak whatever the allocator (docs/budgets.md), resolved into bytes once the
    // workload is loaded (sim/app/run/run_config.h). Exclusive with budget.
    std::optional<double> memory_budget_ratio;
    // platform.memory.allow_ratio_above_one: a budget_ratio above 1 (more memory than the
    // workload ever holds) is accepted only when the user says they mean it.
    bool allow_ratio_above_one = false;

    // The node model is on: a host link (or a SimGrid file) makes transfers flows on links.
    [[nodiscard]] bool has_host_tier() const { return host_link.has_value() || !simgrid_file.empty(); }
    // The node's tiers, built from today's keys: host RAM (platform.host.memory), then the
    // disks (platform.disk / platform.disks), each reached by the GPU's route to the host
    // (platform.host.link, or the platform file's routes).
    [[nodiscard]] std::vector<TierSpec> tiers() const {
        std::vector<DiskSpec> routes;
        for (int g = 0; g < gpus && has_host_tier(); ++g)
            routes.push_back(file_routes.empty() ? link_tier(*host_link) : file_routes[static_cast<std::size_t>(g)]);
        std::vector<TierSpec> rows(kTierCount);
        const auto row = [&](TierId t) -> TierSpec& {
            rows[t].name = tier_row(t).name;
            rows[t].key = tier_row(t).key;
            rows[t].routes = routes;
            return rows[t];
        };
        TierSpec& host = row(kHostRamTier);
        host.capacity = host_memory;
        host.holds_space = true;
        TierSpec& disk_tier = row(kDiskTier);
        disk_tier.devices = disks.empty() ? std::vector{disk} : disks;
        disk_tier.staged_by_path = true;
        return rows;
    }
    [[nodiscard]] std::size_t disk_count() const { return disks.empty() ? 1 : disks.size(); }
};

}  // namespace memsim
