// The swap modes a scenario can name (policy.swap.mode), one row each.
#include <array>

#include "models/swap/mode/swap_mode.h"

namespace memsim {

std::unique_ptr<SwapMode> make_no_swap_mode();    // no_swap_mode.cpp
std::unique_ptr<SwapMode> make_sync_mode();       // sync_mode.cpp
std::unique_ptr<SwapMode> make_semi_sync_mode();  // semi_sync_mode.cpp
std::unique_ptr<SwapMode> make_async_mode();      // async_mode.cpp

namespace {

const std::array kModes{
    SwapModeRow{"none", "no swapping", make_no_swap_mode},
    SwapModeRow{"sync", "each transfer blocks the GPU stream", make_sync_mode},
    SwapModeRow{"semi_sync", "a transfer overlaps the next operator only", make_semi_sync_mode},
    SwapModeRow{"async", "transfers overlap compute; reads issued by the prefetch rule", make_async_mode},
};

}  // namespace

std::span<const SwapModeRow> swap_modes() { return kModes; }

}  // namespace memsim
