// A segment tree over positions 0..n-1 holding integers: add a value to a range and read
// the maximum of a range, each in O(log n). The budget prefetch's memory guard asks, for
// every candidate read, the largest predicted in-use bytes over the ops it would be held
// (PrefetchMemoryGuard in prefetch_rule.h); walking the span op by op made async
// swapping quadratic in the workload's length.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace memsim {

class RangeAddMax {
public:
    explicit RangeAddMax(const std::vector<std::int64_t>& values);
    void add(std::size_t lo, std::size_t hi, std::int64_t delta);      // to every position in [lo, hi)
    [[nodiscard]] std::int64_t max(std::size_t lo, std::size_t hi) const;  // over [lo, hi), which must not be empty
    [[nodiscard]] std::size_t size() const { return n_; }

private:
    void build(std::size_t node, std::size_t l, std::size_t r, const std::vector<std::int64_t>& values);
    void add(std::size_t node, std::size_t l, std::size_t r, std::size_t lo, std::size_t hi, std::int64_t delta);
    [[nodiscard]] std::int64_t max(std::size_t node, std::size_t l, std::size_t r, std::size_t lo, std::size_t hi) const;

    std::size_t n_;
    // A node's maximum over its range, its own pending add included (added to the whole
    // range and never pushed down: a query adds the adds of the nodes it passes).
    std::vector<std::int64_t> max_, add_;
};

}  // namespace memsim
