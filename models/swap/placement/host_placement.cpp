// host: every swapped tensor goes to host RAM; one that does not fit stops the run.
#include "models/swap/placement/placement_rule.h"

namespace memsim {

namespace {

class HostPlacement final : public PlacementRule {
public:
    [[nodiscard]] std::optional<TierId> place(const PlacementInput& in) const override {
        if (in.bytes <= in.free[kHostRamTier]) return kHostRamTier;
        return std::nullopt;
    }
};

}  // namespace

std::unique_ptr<PlacementRule> make_host_placement(const PolicyParams&) { return std::make_unique<HostPlacement>(); }

}  // namespace memsim
