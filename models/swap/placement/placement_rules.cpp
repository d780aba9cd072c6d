// The placement rules a scenario can name (policy.swap.placement) and the paths to the
// disk (policy.swap.path), one row each.
#include <array>

#include "models/swap/placement/placement_rule.h"

namespace memsim {

std::unique_ptr<PlacementRule> make_disk_placement(const PolicyParams&);            // disk_placement.cpp
std::unique_ptr<PlacementRule> make_host_placement(const PolicyParams&);            // host_placement.cpp
std::unique_ptr<PlacementRule> make_host_then_disk_placement(const PolicyParams&);  // host_then_disk_placement.cpp
std::unique_ptr<PlacementRule> make_lifetime_placement(const PolicyParams&);        // lifetime_placement.cpp

std::span<const PlacementRow> placement_rules() {
    static const std::array rules{
        PlacementRow{"disk", "every swapped tensor to the disk", make_disk_placement, {}, {false}},
        PlacementRow{"host", "every swapped tensor to host RAM (platform.host.memory); one that does not fit stops the run",
                     make_host_placement},
        PlacementRow{"host_then_disk", "host RAM while the tensor fits, else the disk", make_host_then_disk_placement},
        PlacementRow{"lifetime", "next use at least `split` of compute away: the disk; nearer: host RAM while it fits, else the disk",
                     make_lifetime_placement,
                     {duration_param("split", "compute time to the next use from which a tensor goes to the disk").or_default(100)}},
    };
    return rules;
}

namespace {

template <bool Bounce>
SwapPathFlags path_flags(const PolicyParams&) {
    return {Bounce};
}

}  // namespace

std::span<const SwapPathRow> swap_paths() {
    static const std::array paths{
        SwapPathRow{"bounce", "GPU -> host buffer -> disk and back: the buffer counted in host RAM, link then disk",
                    path_flags<true>, {}, {true}},
        SwapPathRow{"direct", "GPUDirect Storage: the link and the disk stream together, no host copy", path_flags<false>,
                    {}, {false}},
    };
    return paths;
}

}  // namespace memsim
