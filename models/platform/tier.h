// A tier beyond the GPU's memory that swapped tensors go to (docs/tiers.md), named by its
// index in the platform's tiers: host RAM, then the disk. Everything that counts or
// times a swap per tier (the copy queue's requests and models, a tensor's swapped copy,
// the node's byte counts, the summary) is indexed by it, so a tier is a row, not a bool.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace memsim {

using TierId = std::uint8_t;
inline constexpr TierId kHostRamTier = 0;
inline constexpr TierId kDiskTier = 1;
inline constexpr std::size_t kTierCount = 2;
inline constexpr TierId kNoTier = 0xff;  // a tensor with no swapped copy
// In messages ("... has a swapped copy on the disk"), and in the summary's keys
// (bytes_to_host, disk_dropped_bytes).
inline constexpr std::array<std::string_view, kTierCount> kTierNames = {"host RAM", "disk"};
inline constexpr std::array<std::string_view, kTierCount> kTierKeys = {"host", "disk"};
// Bytes per tier.
using TierBytes = std::array<std::uint64_t, kTierCount>;

}  // namespace memsim
