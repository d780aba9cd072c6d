// How long a transfer over one link takes: the direction's latency plus its bytes over
// the direction's bandwidth. The one place that arithmetic is written: the engine's disk
// queue predicts its backlog with it (and its disk actor waits the latency before each
// SimGrid I/O), the bandwidth-aware swap selection times its plan with it, and the swap
// warnings price a serial schedule with it. On the node of docs/tiers.md a GPU's route to
// the host is another TransferModel (TierSpec::routes), and a disk behind it one of a two-hop path.
#pragma once

#include <algorithm>
#include <cstdint>

#include "models/platform/platform_spec.h"

namespace memsim {

// A disk behind a route (a write crosses its write side, a read its read side). Staged
// (the bounce path: the route then the disk, one after the other) costs both latencies plus the bytes over each bandwidth, exactly; streamed
// (GPUDirect: both at once) costs both latencies plus the bytes over the slower one,
// an upper bound of the simulated max(link, disk).
inline DiskSpec disk_behind_route(const DiskSpec& route, const DiskSpec& disk, bool staged) {
    const auto rate = [&](double route_rate, double disk_rate) {
        return staged ? 1.0 / (1.0 / route_rate + 1.0 / disk_rate) : std::min(route_rate, disk_rate);
    };
    return {rate(route.read_bytes_per_s, disk.read_bytes_per_s), rate(route.write_bytes_per_s, disk.write_bytes_per_s),
            disk.read_latency_ms + route.read_latency_ms, disk.write_latency_ms + route.write_latency_ms};
}

class TransferModel {
public:
    explicit TransferModel(const DiskSpec& link)
        : read_latency_ms_(link.read_latency_ms), write_latency_ms_(link.write_latency_ms),
          read_bytes_per_s_(link.read_bytes_per_s), write_bytes_per_s_(link.write_bytes_per_s) {}

    // `transfers` transfers of `bytes` bytes in all, one after another (each pays the
    // latency); one transfer by default.
    [[nodiscard]] double read_ms(std::uint64_t bytes, std::uint64_t transfers = 1) const {
        return transfer_ms(read_latency_ms_, read_bytes_per_s_, bytes, transfers);
    }
    [[nodiscard]] double write_ms(std::uint64_t bytes, std::uint64_t transfers = 1) const {
        return transfer_ms(write_latency_ms_, write_bytes_per_s_, bytes, transfers);
    }
    [[nodiscard]] double ms(bool write, std::uint64_t bytes) const { return write ? write_ms(bytes) : read_ms(bytes); }
    [[nodiscard]] double latency_ms(bool write) const { return write ? write_latency_ms_ : read_latency_ms_; }

private:
    static double transfer_ms(double latency_ms, double bytes_per_s, std::uint64_t bytes, std::uint64_t transfers) {
        const double latencies = transfers == 1 ? latency_ms : static_cast<double>(transfers) * latency_ms;
        return latencies + static_cast<double>(bytes) * 1e3 / bytes_per_s;
    }

    double read_latency_ms_, write_latency_ms_;
    double read_bytes_per_s_, write_bytes_per_s_;
};

}  // namespace memsim
