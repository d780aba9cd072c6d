#include "sim/engine/host_tier.h"

#include <algorithm>

#include <fmt/format.h>

#include <simgrid/s4u/Engine.hpp>

#include "sim/engine/run_result.h"

namespace memsim {

HostTier::HostTier(const PlatformSpec& platform)
    : enabled_(platform.has_host_tier()), capacity_(platform.tiers()[kHostRamTier].capacity) {}

void HostTier::start() { start_s_ = simgrid::s4u::Engine::get_clock(); }

double HostTier::now_ms() const { return (simgrid::s4u::Engine::get_clock() - start_s_) * 1e3; }

void HostTier::take(std::uint64_t bytes) {
    in_use_ += bytes;
    peak_ = std::max(peak_, in_use_);
    samples_.push_back({now_ms(), in_use_});
}

void HostTier::release(std::uint64_t bytes) {
    if (bytes > in_use_) throw InvariantError(fmt::format("host RAM gives back {} B but holds {} B", bytes, in_use_));
    in_use_ -= bytes;
    samples_.push_back({now_ms(), in_use_});
}

std::string HostTier::state_text() const {
    return fmt::format("host RAM holds {} B of {}: {} B of swapped tensors, {} B of bounce buffers", in_use_,
                       capacity_ ? fmt::format("{} B", *capacity_) : std::string("unlimited"), tiers[kHostRamTier].resident,
                       staged_bytes);
}

void HostTier::check_invariants(const TierBytes& resident) const {
    for (TierId t = 0; t < kTierCount; ++t) {
        const TierCounts& c = tiers[t];
        const std::string_view name = kTierNames[t];
        const std::uint64_t found = resident[t];
        if (c.in != c.out + c.resident)
            throw InvariantError(fmt::format("{}: {} B in but {} B out + {} B resident", name, c.in, c.out, c.resident));
        if (c.resident != found)
            throw InvariantError(fmt::format("{}: {} B counted resident but its tensors hold {} B", name, c.resident, found));
    }
    const std::uint64_t tensors = tiers[kHostRamTier].resident;
    if (staged_bytes != 0 || in_use_ != tensors)
        throw InvariantError(fmt::format("host RAM: {} B in use at the end, {} B of tensors, {} B of bounce buffers", in_use_,
                                         tensors, staged_bytes));
}

}  // namespace memsim
