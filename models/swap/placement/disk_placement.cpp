// disk: every swapped tensor goes to the disk (the model without a host tier).
#include "models/swap/placement/placement_rule.h"

namespace memsim {

namespace {

class DiskPlacement final : public PlacementRule {
public:
    [[nodiscard]] std::optional<TierId> place(const PlacementInput&) const override { return kDiskTier; }
};

}  // namespace

std::unique_ptr<PlacementRule> make_disk_placement(const PolicyParams&) { return std::make_unique<DiskPlacement>(); }

}  // namespace memsim
