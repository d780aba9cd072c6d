// Host RAM on the node of docs/tiers.md: its capacity, what the swapped tensors placed
// there and the bounce buffers of disk transfers hold (its peak and curve), the space of
// every other tier whose space memsim counts, and the bytes each tier took in and gave
// out. One for the node, shared by every GPU's swap side (they take and release); at the
// end of a run the engine checks, per tier, bytes in = bytes out + bytes resident
// (check_invariants).
#pragma once

#include <array>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>

#include <vector>

#include "models/platform/platform_spec.h"
#include "models/platform/tier.h"
#include "sim/engine/event_log.h"

namespace memsim {

class HostTier {
public:
    explicit HostTier(const PlatformSpec& platform);
    void start();  // at the start of the SimGrid run: the samples' time origin

    [[nodiscard]] bool enabled() const { return enabled_; }
    // The free bytes of `tier` (a tier whose space memsim counts, TierSpec::holds_space;
    // any other is unlimited).
    [[nodiscard]] std::uint64_t free_bytes(TierId tier = kHostRamTier) const {
        const Space& s = spaces_[tier];
        if (!s.counted || !s.capacity) return std::numeric_limits<std::uint64_t>::max();
        return *s.capacity > s.in_use ? *s.capacity - s.in_use : 0;
    }
    [[nodiscard]] bool fits(std::uint64_t bytes, TierId tier = kHostRamTier) const { return bytes <= free_bytes(tier); }
    // Takes `bytes` of `tier` (a tensor placed there; in host RAM also a bounce buffer or
    // an offloaded optimizer state); the caller checked fits(). release gives them back.
    // Nothing for a tier whose space is not counted.
    void take(std::uint64_t bytes, TierId tier = kHostRamTier);
    void release(std::uint64_t bytes, TierId tier = kHostRamTier);
    // "host RAM holds 3000 B of 4000 B: 2000 B of swapped tensors, 1000 B of bounce buffers".
    [[nodiscard]] std::string state_text(TierId tier = kHostRamTier) const;

    // Per tier: bytes in (writes completed), out (reads completed, copies dropped once
    // their tensor was released), and what is resident now.
    struct TierCounts {
        std::uint64_t in = 0, out = 0, resident = 0;
        std::uint64_t read = 0;  // of `out`, read back to the GPU (the rest was dropped)
    };
    std::array<TierCounts, kTierCount> tiers;  // by tier id
    std::uint64_t staged_bytes = 0;  // bounce buffers now
    [[nodiscard]] std::uint64_t peak() const { return peak_; }  // host RAM's
    [[nodiscard]] std::optional<std::uint64_t> capacity() const { return spaces_[kHostRamTier].capacity; }
    // Host RAM in use after each take and release, in order (for the event log).
    [[nodiscard]] std::vector<HostSample> take_samples() { return std::move(samples_); }
    // Per tier, bytes in = bytes out + resident, and the resident bytes equal those of the
    // tensors found there (`resident`); throws InvariantError.
    void check_invariants(const TierBytes& resident) const;

private:
    struct Space {
        bool counted = false;
        std::optional<std::uint64_t> capacity;  // none: unlimited
        std::uint64_t in_use = 0;
    };
    bool enabled_;
    std::array<Space, kTierCount> spaces_{};
    std::uint64_t peak_ = 0;
    double start_s_ = 0;
    std::vector<HostSample> samples_;
    [[nodiscard]] double now_ms() const;
};

}  // namespace memsim
