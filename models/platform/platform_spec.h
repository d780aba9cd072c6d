// The machine a run simulates, as a scenario's platform section (or a file in configs/)
// describes it: the GPU's speed, the disk it swaps to, and its device memory. Plain
// data, read by the scenario parser (sim/scenario/) and handed to the engine in its
// EngineConfig; the engine builds its SimGrid resources from it (sim/platform.h), and
// every transfer time is asked of the disk's TransferModel (transfer_model.h).
//
// Each resource is a struct of its own (the GPU's speed is one field today) so that a
// platform with several GPUs, a host-memory tier or links of their own can list more
// of them without reshaping those that exist.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

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

struct PlatformSpec {
    std::string name = "default";
    double gpu_speed_scale = 1.0;
    DiskSpec disk;
    std::optional<std::uint64_t> memory_budget;
    // platform.memory.budget_ratio: the budget as a fraction of the workload's live-bytes
    // (os) peak whatever the allocator (docs/budgets.md), resolved into bytes once the
    // workload is loaded (sim/run/run_config.h). Exclusive with budget.
    std::optional<double> memory_budget_ratio;
    // platform.memory.allow_ratio_above_one: a budget_ratio above 1 (more memory than the
    // workload ever holds) is accepted only when the user says they mean it.
    bool allow_ratio_above_one = false;
};

}  // namespace memsim
