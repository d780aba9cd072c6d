// host_then_disk: host RAM while the tensor fits (leaving room to stage a disk transfer of
// its size on the bounce path), the disk once it does not.
#include "models/swap/placement/placement_rule.h"

namespace memsim {

namespace {

class HostThenDiskPlacement final : public PlacementRule {
public:
    [[nodiscard]] std::optional<TierId> place(const PlacementInput& in) const override {
        return in.bytes + in.staging_bytes <= in.free[kHostRamTier] ? kHostRamTier : kDiskTier;
    }
};

}  // namespace

std::unique_ptr<PlacementRule> make_host_then_disk_placement(const PolicyParams&) {
    return std::make_unique<HostThenDiskPlacement>();
}

}  // namespace memsim
