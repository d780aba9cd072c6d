// Where a swapped-out tensor goes (policy.swap.placement) and by which path a disk
// transfer travels (policy.swap.path), on the node of docs/tiers.md: a tier by its id
// (models/platform/tier.h: host RAM behind the GPU's PCIe link, a disk on the host). One row per choice in
// placement_rules.cpp / swap_paths.cpp; the engine asks the rule at every swap-out.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "models/platform/tier.h"
#include "models/policy_table.h"

namespace memsim {

struct PlacementInput {
    std::uint64_t bytes = 0;
    TierBytes free{};  // per tier: not held now (capacity minus what is resident or reserved; unlimited: the maximum)
    // Host RAM a disk transfer of this tensor pins (the bounce path's buffer; 0 direct): a
    // rule that may choose the disk later keeps that much free when it picks host RAM.
    std::uint64_t staging_bytes = 0;
    double ms_to_next_use = -1;   // predicted compute from now until the tensor's next use; -1: never again
};

class PlacementRule {
public:
    virtual ~PlacementRule() = default;
    // The tier, or none when the rule's only tier cannot take the tensor (the engine
    // stops the run with the tensor, its size and the host's state).
    [[nodiscard]] virtual std::optional<TierId> place(const PlacementInput& in) const = 0;
};

// Whether a rule may put tensors in host RAM (it needs platform.host.link).
struct PlacementFlags {
    bool uses_host = true;
};
using PlacementRow = PolicyRow<std::unique_ptr<PlacementRule> (*)(const PolicyParams&), PlacementFlags>;

// disk, host, host_then_disk, lifetime.
std::span<const PlacementRow> placement_rules();

// A rule trying `order`'s tiers nearest first: the first with room takes the tensor, the
// last takes it regardless (host_then_disk is {host RAM, disk}).
std::unique_ptr<PlacementRule> make_first_fit_placement(std::vector<TierId> order);

// A path's one flag: staged through a host buffer (counted in host RAM while the disk
// transfer runs, the link and the disk one after the other) or not (GPUDirect Storage:
// the link and the disk stream together, no host copy).
struct SwapPathFlags {
    bool bounce = true;
};
// The factory is unused (a path is its flag); it keeps the family's row shape.
using SwapPathRow = PolicyRow<SwapPathFlags (*)(const PolicyParams&), SwapPathFlags>;

// bounce, direct.
std::span<const SwapPathRow> swap_paths();

}  // namespace memsim
