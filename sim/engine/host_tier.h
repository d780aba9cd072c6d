// Host RAM on the node of docs/tiers.md: its capacity, what the swapped tensors placed
// there and the bounce buffers of disk transfers hold, and the bytes each tier took in
// and gave out. One for the node, shared by every GPU's swap side (they take and
// release); at the end of a run the engine checks, per tier, bytes in = bytes out +
// bytes resident (check_invariants).
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
    [[nodiscard]] std::uint64_t free_bytes() const {
        return capacity_ ? (*capacity_ > in_use_ ? *capacity_ - in_use_ : 0) : std::numeric_limits<std::uint64_t>::max();
    }
    [[nodiscard]] bool fits(std::uint64_t bytes) const { return bytes <= free_bytes(); }
    // Takes `bytes` of host RAM (a tensor placed there, a bounce buffer); the caller
    // checked fits(). release gives them back.
    void take(std::uint64_t bytes);
    void release(std::uint64_t bytes);
    // "host RAM holds 3000 B of 4000 B: 2000 B of swapped tensors, 1000 B of bounce buffers".
    [[nodiscard]] std::string state_text() const;

    // Per tier: bytes in (writes completed), out (reads completed, copies dropped once
    // their tensor was released), and what is resident now.
    struct TierCounts {
        std::uint64_t in = 0, out = 0, resident = 0;
        std::uint64_t read = 0;  // of `out`, read back to the GPU (the rest was dropped)
    };
    std::array<TierCounts, kTierCount> tiers;  // by tier id
    std::uint64_t staged_bytes = 0;  // bounce buffers now
    [[nodiscard]] std::uint64_t peak() const { return peak_; }
    [[nodiscard]] std::optional<std::uint64_t> capacity() const { return capacity_; }
    // Host RAM in use after each take and release, in order (for the event log).
    [[nodiscard]] std::vector<HostSample> take_samples() { return std::move(samples_); }
    // Per tier, bytes in = bytes out + resident, and the resident bytes equal those of the
    // tensors found there (`resident`); throws InvariantError.
    void check_invariants(const TierBytes& resident) const;

private:
    bool enabled_;
    std::optional<std::uint64_t> capacity_;
    std::uint64_t in_use_ = 0, peak_ = 0;
    double start_s_ = 0;
    std::vector<HostSample> samples_;
    [[nodiscard]] double now_ms() const;
};

}  // namespace memsim
