// none: nothing goes to disk by plan (the budget may still force evictions).
#include "models/swap/mode/swap_mode.h"

namespace memsim {

namespace {

class NoSwapMode final : public SwapMode {
public:
    bool moves_tensors() const override { return false; }
};

}  // namespace

std::unique_ptr<SwapMode> make_no_swap_mode() { return std::make_unique<NoSwapMode>(); }

}  // namespace memsim
