// Swap-specific warnings for a finished run: facts a user would otherwise miss in the
// numbers (a run that "swaps" and saves nothing, writes thrown away, an async schedule
// slower than its serial one). A pure function of the configuration and the run's
// counters; sim/app/run/run_warnings.cpp appends what it returns to the summary's warnings
// (a prefetch rule that cannot act is a scenario warning there, not repeated here).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "models/platform/platform_spec.h"

namespace memsim {

struct SwapWarningInputs {
    // Configuration.
    bool swaps = false;         // the swap mode moves tensors (policy.swap.mode != none)
    bool async = false;         // reads are issued by the prefetch rule (async mode)
    DiskSpec disk;              // platform.disk
    // Where swap-outs go (policy.swap.placement), as the cancelled-writes warning ends:
    // "the disk wrote them", "they reached host RAM", "they reached host RAM or the disk".
    std::string written = "the disk wrote them";
    // The run.
    std::uint64_t no_swap_live_peak_bytes = 0;  // the workload's live peak with nothing swapped
    std::uint64_t live_peak_bytes = 0;
    std::uint64_t swapped_tensors = 0;          // the selection's tensors
    std::uint64_t selected_bytes = 0;           // their bytes
    std::uint64_t cancelled_writes = 0;
    std::uint64_t bytes_written = 0;
    std::uint64_t evictions = 0;                // on-demand swap-outs (their writes and reads are extra)
    double time_ms = 0, compute_ms = 0;
};

// In this order, when they apply:
// - "swapping saved no memory: ..." tensors were selected but the live peak is not below
//   the no-swap live peak;
// - "N of M swap-outs were cancelled: ..." writes dropped because their tensor was needed first;
// - "async is slower than sync would be: ..." the async time exceeds compute plus every
//   planned write and read done one after another (what sync spends on this selection
//   when nothing is evicted on demand, so only checked when evictions == 0).
std::vector<std::string> swap_warnings(const SwapWarningInputs& in);

}  // namespace memsim
