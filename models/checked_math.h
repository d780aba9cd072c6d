// Byte arithmetic that cannot wrap: sums, products and alignment of sizes either give
// the exact result or report that it does not fit (std::nullopt), so callers can name
// the file and tensor that overflowed instead of printing a wrapped number.
#pragma once

#include <cstdint>
#include <climits>
#include <optional>

namespace memsim {

// Every byte total of one workload (sizes, peaks, offsets, budgets) must stay at or below
// 2^53: exact in a double (summaries and charts) and far from 2^64 even after alignment
// and budget ratios (docs/limits.md).
inline constexpr std::uint64_t kMaxTotalBytes = std::uint64_t{1} << 53;
// The largest --align: a 1 GiB boundary.
inline constexpr std::uint64_t kMaxAlign = std::uint64_t{1} << 30;

[[nodiscard]] inline std::optional<std::uint64_t> checked_add(std::uint64_t a, std::uint64_t b) {
    std::uint64_t sum = 0;
    if (__builtin_add_overflow(a, b, &sum)) return std::nullopt;
    return sum;
}

[[nodiscard]] inline std::optional<std::uint64_t> checked_mul(std::uint64_t a, std::uint64_t b) {
    std::uint64_t product = 0;
    if (__builtin_mul_overflow(a, b, &product)) return std::nullopt;
    return product;
}

// `bytes` rounded up to a multiple of `align` (align >= 1).
[[nodiscard]] inline std::optional<std::uint64_t> checked_align_up(std::uint64_t bytes, std::uint64_t align) {
    const std::uint64_t rest = bytes % align;
    if (rest == 0) return bytes;
    return checked_add(bytes, align - rest);
}

// A byte count (a budget, a cap) compared with signed running totals: one at or past 2^63
// would turn negative in a plain cast (a budget that never binds would bind everywhere);
// it saturates instead, still above every total a workload can reach.
[[nodiscard]] inline std::int64_t saturated_signed(std::uint64_t bytes) {
    constexpr auto kMax = static_cast<std::uint64_t>(INT64_MAX);
    return static_cast<std::int64_t>(bytes > kMax ? kMax : bytes);
}

}  // namespace memsim
