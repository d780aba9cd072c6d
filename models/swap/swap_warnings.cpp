#include "models/swap/swap_warnings.h"

#include <fmt/format.h>

#include "models/platform/transfer_model.h"

namespace memsim {

namespace {

// Sync on a static selection: compute, then every planned write and read waited for in
// turn (docs/swap.md, sync). Exact when no run-time eviction adds transfers.
double serial_ms(const SwapWarningInputs& in) {
    const TransferModel disk(in.disk);
    return in.compute_ms + disk.write_ms(in.selected_bytes, in.swapped_tensors) + disk.read_ms(in.selected_bytes, in.swapped_tensors);
}

}  // namespace

std::vector<std::string> swap_warnings(const SwapWarningInputs& in) {
    std::vector<std::string> out;
    if (!in.swaps) return out;
    if (in.swapped_tensors > 0 && in.live_peak_bytes >= in.no_swap_live_peak_bytes)
        out.push_back(fmt::format("swapping saved no memory: live peak {} B, no-swap live peak {} B", in.live_peak_bytes,
                                  in.no_swap_live_peak_bytes));
    if (in.cancelled_writes > 0)
        out.push_back(fmt::format("{} of {} swap-outs were cancelled: their tensors were needed before {}",
                                  in.cancelled_writes, in.swapped_tensors, in.written));
    if (in.async && in.evictions == 0 && in.swapped_tensors > 0 && in.disk.write_bytes_per_s > 0 && in.disk.read_bytes_per_s > 0) {
        const double serial = serial_ms(in);
        if (in.time_ms > serial)
            out.push_back(fmt::format("async is slower than sync would be: {:.3f} ms, against {:.3f} ms for compute plus "
                                      "every planned write and read one after another",
                                      in.time_ms, serial));
    }
    return out;
}

}  // namespace memsim
