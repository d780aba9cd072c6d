// torch_caching's size rules (docs/torch_allocator.md, "Sizes"): how a request is rounded,
// which pool serves it, and how large a new segment is. The constants are c10's.
#pragma once

#include <bit>
#include <cstdint>

#include "models/alloc/torch_alloc_conf.h"

namespace memsim::torch {

inline constexpr std::uint64_t kMinBlockSize = 512;             // every block is a multiple of 512 B
inline constexpr std::uint64_t kSmallSize = 1024 * 1024;        // requests up to 1 MiB use the small pool
inline constexpr std::uint64_t kSmallBuffer = 2 * 1024 * 1024;  // small segments are 2 MiB
inline constexpr std::uint64_t kMinLargeAlloc = 10 * 1024 * 1024;  // below it, a large request gets a 20 MiB segment
inline constexpr std::uint64_t kLargeBuffer = 20 * 1024 * 1024;
inline constexpr std::uint64_t kRoundLarge = 2 * 1024 * 1024;   // larger segments are rounded up to 2 MiB

// roundup_power2_divisions: `bytes` rounded up to the next of `divisions` equal steps
// between the powers of two around it (1200 with 4 divisions: 1280).
inline std::uint64_t round_to_power2_division(std::uint64_t bytes, std::uint64_t divisions) {
    if (std::has_single_bit(bytes)) return bytes;
    const std::uint64_t floor = std::bit_floor(bytes);
    const std::uint64_t step = floor >> (63 - std::countl_zero(divisions));
    if (step == 0) return floor << 1;
    const std::uint64_t below = bytes & ~(step - 1);
    return below == bytes ? bytes : below + step;
}

// The block size a request of `bytes` asks for.
inline std::uint64_t round_size(std::uint64_t bytes, const TorchAllocConf& conf) {
    if (bytes < kMinBlockSize) return kMinBlockSize;
    const std::uint64_t divisions = conf.divisions_for(bytes);
    if (divisions > 1 && bytes > kMinBlockSize * divisions) return round_to_power2_division(bytes, divisions);
    return (bytes + kMinBlockSize - 1) / kMinBlockSize * kMinBlockSize;
}

inline bool small_pool(std::uint64_t rounded) { return rounded <= kSmallSize; }

// The segment a rounded request makes when nothing cached fits.
inline std::uint64_t allocation_size(std::uint64_t rounded) {
    if (rounded <= kSmallSize) return kSmallBuffer;
    if (rounded < kMinLargeAlloc) return kLargeBuffer;
    return (rounded + kRoundLarge - 1) / kRoundLarge * kRoundLarge;
}

// The page an expandable segment maps at a time.
inline std::uint64_t expandable_page(bool small) { return small ? kSmallBuffer : kLargeBuffer; }

}  // namespace memsim::torch
