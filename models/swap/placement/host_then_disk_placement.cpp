// host_then_disk, as a first fit over tiers (host RAM, then the disk): the nearest tier
// with room takes the tensor, the last takes it regardless. Host RAM keeps room to stage
// a later transfer of the tensor's size on the bounce path (the buffer lives there).
#include <vector>

#include "models/swap/placement/placement_rule.h"

namespace memsim {

namespace {

class FirstFitPlacement final : public PlacementRule {
public:
    explicit FirstFitPlacement(std::vector<TierId> order) : order_(std::move(order)) {}
    [[nodiscard]] std::optional<TierId> place(const PlacementInput& in) const override {
        for (std::size_t i = 0; i + 1 < order_.size(); ++i) {
            const TierId t = order_[i];
            if (in.bytes + (t == kHostRamTier ? in.staging_bytes : 0) <= in.free[t]) return t;
        }
        return order_.back();
    }

private:
    std::vector<TierId> order_;
};

}  // namespace

std::unique_ptr<PlacementRule> make_first_fit_placement(std::vector<TierId> order) {
    return std::make_unique<FirstFitPlacement>(std::move(order));
}

std::unique_ptr<PlacementRule> make_host_then_disk_placement(const PolicyParams&) {
    return make_first_fit_placement({kHostRamTier, kDiskTier});
}

}  // namespace memsim
