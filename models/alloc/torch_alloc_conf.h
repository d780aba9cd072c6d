// policy.torch_alloc_conf: the options string PyTorch users put in PYTORCH_CUDA_ALLOC_CONF
// ("max_split_size_mb:128,expandable_segments:True"), parsed strictly: an unknown option
// or a value out of range is an error naming it and the valid range. The options and
// their ranges are those of the revision the torch_caching model follows
// (docs/torch_allocator.md).
#pragma once

#include <array>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

namespace memsim {

// roundup_power2_divisions is kept per power-of-two size interval: [1, 2) MiB, [2, 4) MiB,
// ..., [32 GiB, ...) (sizes below 1 MiB use the first one, as PyTorch does).
inline constexpr std::size_t kRoundupIntervals = 16;

struct TorchAllocConf {
    std::string text;  // as written ("" = PyTorch's defaults)
    std::uint64_t max_split_size = std::numeric_limits<std::uint64_t>::max();  // bytes; max = unlimited
    std::array<std::uint64_t, kRoundupIntervals> roundup_divisions{};  // 0 or 1: plain 512-byte rounding
    double garbage_collection_threshold = 0.0;                        // 0: off
    bool expandable_segments = false;
    bool release_lock_on_cudamalloc = false;  // accepted; no effect on memory

    [[nodiscard]] bool splits_unlimited() const { return max_split_size == std::numeric_limits<std::uint64_t>::max(); }
    // The divisions that apply to a request of `bytes` (after the 512-byte minimum).
    [[nodiscard]] std::uint64_t divisions_for(std::uint64_t bytes) const;
};

// Throws std::invalid_argument naming the option, the value and the valid range.
TorchAllocConf parse_torch_alloc_conf(std::string_view text);

// Every option the parser knows, for messages and docs.
std::string torch_alloc_conf_options();

}  // namespace memsim
