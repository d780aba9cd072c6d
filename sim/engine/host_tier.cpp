#include "sim/engine/host_tier.h"

#include <algorithm>

#include <fmt/format.h>

#include <simgrid/s4u/Engine.hpp>

#include "sim/engine/run_result.h"

namespace memsim {

HostTier::HostTier(const PlatformSpec& platform) : enabled_(platform.has_host_tier()) {
    const std::vector<TierSpec> specs = platform.tiers();
    for (TierId t = 0; t < kTierCount; ++t) spaces_[t] = {specs[t].holds_space, specs[t].capacity, 0};
}

void HostTier::start() { start_s_ = simgrid::s4u::Engine::get_clock(); }

double HostTier::now_ms() const { return (simgrid::s4u::Engine::get_clock() - start_s_) * 1e3; }

void HostTier::take(std::uint64_t bytes, TierId tier) {
    Space& s = spaces_[tier];
    if (!s.counted) return;
    s.in_use += bytes;
    if (tier != kHostRamTier) return;
    peak_ = std::max(peak_, s.in_use);
    samples_.push_back({now_ms(), s.in_use});
}

void HostTier::release(std::uint64_t bytes, TierId tier) {
    Space& s = spaces_[tier];
    if (!s.counted) return;
    if (bytes > s.in_use)
        throw InvariantError(fmt::format("{} gives back {} B but holds {} B", tier_row(tier).name, bytes, s.in_use));
    s.in_use -= bytes;
    if (tier == kHostRamTier) samples_.push_back({now_ms(), s.in_use});
}

std::string HostTier::state_text(TierId tier) const {
    const Space& s = spaces_[tier];
    return fmt::format("{} holds {} B of {}: {} B of swapped tensors{}", tier_row(tier).name, s.in_use,
                       s.capacity ? fmt::format("{} B", *s.capacity) : std::string("unlimited"), tiers[tier].resident,
                       tier == kHostRamTier ? fmt::format(", {} B of bounce buffers", staged_bytes) : std::string());
}

void HostTier::check_invariants(const TierBytes& resident) const {
    for (TierId t = 0; t < kTierCount; ++t) {
        const TierCounts& c = tiers[t];
        const std::string_view name = tier_row(t).name;
        const std::uint64_t found = resident[t];
        if (c.in != c.out + c.resident)
            throw InvariantError(fmt::format("{}: {} B in but {} B out + {} B resident", name, c.in, c.out, c.resident));
        if (c.resident != found)
            throw InvariantError(fmt::format("{}: {} B counted resident but its tensors hold {} B", name, c.resident, found));
        const Space& s = spaces_[t];
        const std::uint64_t staged = t == kHostRamTier ? staged_bytes : 0;
        if (s.counted && (staged != 0 || s.in_use != c.resident))
            throw InvariantError(fmt::format("{}: {} B in use at the end, {} B of tensors, {} B of bounce buffers", name,
                                             s.in_use, c.resident, staged));
    }
}

}  // namespace memsim
