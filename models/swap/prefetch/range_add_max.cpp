#include "models/swap/prefetch/range_add_max.h"

#include <algorithm>
#include <limits>

namespace memsim {

RangeAddMax::RangeAddMax(const std::vector<std::int64_t>& values)
    : n_(values.size()), max_(4 * std::max<std::size_t>(n_, 1)), add_(max_.size()) {
    if (n_ > 0) build(1, 0, n_, values);
}

void RangeAddMax::build(std::size_t node, std::size_t l, std::size_t r, const std::vector<std::int64_t>& values) {
    if (r - l == 1) {
        max_[node] = values[l];
        return;
    }
    const std::size_t mid = l + (r - l) / 2;
    build(2 * node, l, mid, values);
    build(2 * node + 1, mid, r, values);
    max_[node] = std::max(max_[2 * node], max_[2 * node + 1]);
}

void RangeAddMax::add(std::size_t lo, std::size_t hi, std::int64_t delta) {
    if (lo < std::min(hi, n_)) add(1, 0, n_, lo, std::min(hi, n_), delta);
}

void RangeAddMax::add(std::size_t node, std::size_t l, std::size_t r, std::size_t lo, std::size_t hi, std::int64_t delta) {
    if (hi <= l || r <= lo) return;
    if (lo <= l && r <= hi) {
        max_[node] += delta;
        add_[node] += delta;
        return;
    }
    const std::size_t mid = l + (r - l) / 2;
    add(2 * node, l, mid, lo, hi, delta);
    add(2 * node + 1, mid, r, lo, hi, delta);
    max_[node] = std::max(max_[2 * node], max_[2 * node + 1]) + add_[node];
}

std::int64_t RangeAddMax::max(std::size_t lo, std::size_t hi) const { return max(1, 0, n_, lo, std::min(hi, n_)); }

std::int64_t RangeAddMax::max(std::size_t node, std::size_t l, std::size_t r, std::size_t lo, std::size_t hi) const {
    if (hi <= l || r <= lo) return std::numeric_limits<std::int64_t>::min();
    if (lo <= l && r <= hi) return max_[node];
    const std::size_t mid = l + (r - l) / 2;
    return std::max(max(2 * node, l, mid, lo, hi), max(2 * node + 1, mid, r, lo, hi)) + add_[node];
}

}  // namespace memsim
