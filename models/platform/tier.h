// The tiers beyond the GPU's memory that swapped tensors go to (docs/tiers.md), as one
// table: a tier is a row of kTierRows, nearest the GPU first, and its id is the row's
// index. Everything that counts or times a swap per tier (the copy queue's requests and
// models, a tensor's swapped copy, the node's byte counts, the summary) is indexed by
// the id, and every output that names a tier (messages, summary keys, events.csv, lanes,
// the Gantt page's colours and legend) reads its row. Adding a tier is a row here plus
// its TierSpec in PlatformSpec::tiers() (platform_spec.h) and, to send tensors there, a
// placement rule (models/swap/placement/); docs/tiers.md, "Adding a tier".
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <string_view>

namespace memsim {

using TierId = std::uint8_t;

struct TierRow {
    std::string_view name;         // in messages: "... has a swapped copy on tier 'disk'"
    std::string_view key;          // summary keys (bytes_to_<key>), events.csv's tier column, device names (<key>0)
    const char* lane_out;          // the lane of a swap-out to it (a GPU's lane)
    const char* lane_in;           // of a swap-in from it
    std::string_view display_out;  // the lanes' names in the Gantt page's legend
    std::string_view display_in;
    const char* color_out;  // the lanes' colours on the Gantt page
    const char* color_in;
};

inline constexpr TierRow kTierRows[] = {
    {"host RAM", "host", "host_write", "host_read", "host RAM write", "host RAM read", "#ff9d9a", "#8cd17d"},
    {"disk", "disk", "disk_write", "disk_read", "disk write", "disk read", "#e15759", "#59a14f"},
};
inline constexpr std::size_t kTierCount = std::size(kTierRows);
inline constexpr TierId kNoTier = 0xff;  // a tensor with no swapped copy; a lane of no tier

// The rows' roles, by name: host RAM is where the bounce path stages a staged tier's
// transfers (and whose curve the outputs draw); the disk is where a GPU swaps without a
// node or placement rule (the verb "swap out" names no tier for it).
inline constexpr TierId kHostRamTier = 0;
inline constexpr TierId kDiskTier = 1;
inline constexpr TierId kDefaultTier = kDiskTier;
// A prediction for a swap no tier has room for (the run stops with host_full when it is
// made): timed on the nearest tier.
inline constexpr TierId kNearestTier = 0;

inline constexpr const TierRow& tier_row(TierId tier) { return kTierRows[tier]; }

// Bytes per tier.
using TierBytes = std::array<std::uint64_t, kTierCount>;

}  // namespace memsim
