// none: nothing goes to disk by plan (the budget may still force evictions).
#include "models/swap/mode/swap_mode.h"

namespace memsim {

namespace {

class NoSwapMode final : public SwapMode {};

}  // namespace

std::unique_ptr<SwapMode> make_no_swap_mode(const PolicyParams&) { return std::make_unique<NoSwapMode>(); }

}  // namespace memsim
