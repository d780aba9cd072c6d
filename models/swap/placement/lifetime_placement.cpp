// lifetime: in the spirit of G10 / TERAIO (docs/tiers.md), a tensor whose next use is at
// least `split` of compute away goes to the disk (there is time to bring it back), a
// nearer one to host RAM while it fits (else the disk too).
#include "models/swap/placement/placement_rule.h"

namespace memsim {

namespace {

class LifetimePlacement final : public PlacementRule {
public:
    explicit LifetimePlacement(double split_ms) : split_ms_(split_ms) {}
    [[nodiscard]] std::optional<TierId> place(const PlacementInput& in) const override {
        const bool far = in.ms_to_next_use < 0 || in.ms_to_next_use >= split_ms_;
        if (!far && in.bytes + in.staging_bytes <= in.free[kHostRamTier]) return kHostRamTier;
        return kDiskTier;
    }

private:
    double split_ms_;
};

}  // namespace

std::unique_ptr<PlacementRule> make_lifetime_placement(const PolicyParams& params) {
    return std::make_unique<LifetimePlacement>(params.number("split"));
}

}  // namespace memsim
