// h_rand: a uniformly random candidate from a seeded splitmix64 stream (the same seed
// gives the same choices on every platform, unlike std::uniform_int_distribution).
#pragma once

#include <cstdint>

#include "models/recompute/eviction_heuristic.h"

namespace memsim {

class RandomHeuristic final : public EvictionHeuristic {
public:
    explicit RandomHeuristic(std::uint64_t seed) : state_(seed) {}
    [[nodiscard]] std::string name() const override { return "random"; }
    std::size_t choose(const EvictionView& view, const std::vector<TensorId>& candidates) override;

private:
    std::uint64_t next();
    std::uint64_t state_;
};

}  // namespace memsim
