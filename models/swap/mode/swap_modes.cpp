// The swap modes a scenario can name (policy.swap.mode), one row each: name, summary,
// factory, parameters (none yet) and what the mode does (SwapModeFlags).
#include <array>

#include "models/swap/mode/swap_mode.h"

namespace memsim {

std::unique_ptr<SwapMode> make_no_swap_mode(const PolicyParams&);    // no_swap_mode.cpp
std::unique_ptr<SwapMode> make_sync_mode(const PolicyParams&);       // sync_mode.cpp
std::unique_ptr<SwapMode> make_semi_sync_mode(const PolicyParams&);  // semi_sync_mode.cpp
std::unique_ptr<SwapMode> make_async_mode(const PolicyParams&);      // async_mode.cpp

std::span<const SwapModeRow> swap_modes() {
    static const std::array modes{
        SwapModeRow{"none", "no swapping", make_no_swap_mode, {}, {.moves_tensors = false}},
        SwapModeRow{"sync", "each transfer blocks the GPU stream", make_sync_mode, {}, {.has_sync_points = false}},
        SwapModeRow{"semi_sync", "a transfer overlaps the next operator only", make_semi_sync_mode},
        SwapModeRow{"async", "transfers overlap compute; reads issued by the prefetch rule", make_async_mode, {},
                    {.uses_prefetch_rule = true}},
    };
    return modes;
}

struct SwapModeBuilder {
    static std::unique_ptr<SwapMode> build(const SwapModeRow& row, const ParamValues& given) {
        std::unique_ptr<SwapMode> mode = row.make(PolicyParams(row.params, given));
        mode->flags_ = row.flags;
        return mode;
    }
};

std::unique_ptr<SwapMode> make_swap_mode(const SwapModeRow& row, const ParamValues& given) {
    return SwapModeBuilder::build(row, given);
}

}  // namespace memsim
