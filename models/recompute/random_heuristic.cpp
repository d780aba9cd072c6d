#include "models/recompute/random_heuristic.h"

namespace memsim {

std::uint64_t RandomHeuristic::next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

std::size_t RandomHeuristic::choose(const EvictionView& /*view*/, const std::vector<TensorId>& candidates) {
    return static_cast<std::size_t>(next() % candidates.size());
}

}  // namespace memsim
