// What the node's links and disks did (docs/tiers.md): per link direction and per disk
// I/O direction, the intervals a request's SimGrid activity occupied it and the bytes it
// moved. Measured by the engine whether or not the run records events (measuring runs
// do not), so the summary's busy times never depend on the log; the log's resource
// lanes show the same intervals, and check_log holds the two and the requests to one
// count of bytes.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "sim/engine/event_log.h"
#include "sim/engine/platform.h"
#include "sim/engine/summary.h"

namespace memsim {

class NodeUsage {
public:
    // The resources of `platform`'s node: every link of every GPU's route to the host
    // and back (SimGrid's Host::route_to, so a platform file's links count too), every
    // disk. Nothing without a node.
    void describe(const SimPlatform& platform);

    [[nodiscard]] bool enabled() const { return !lanes_.empty(); }
    // Resource lanes (indices into lane()): the links of GPU `gpu`'s route to the host
    // (write) or back (read), and the I/O lane of the device it uses for `tier` (-1: the
    // tier has none, host RAM).
    [[nodiscard]] const std::vector<int>& route(int gpu, bool write) const {
        return write ? routes_[static_cast<std::size_t>(gpu)].first : routes_[static_cast<std::size_t>(gpu)].second;
    }
    [[nodiscard]] int device_lane(int gpu, TierId tier, bool write) const;
    [[nodiscard]] int lane_count() const { return static_cast<int>(lanes_.size()); }
    [[nodiscard]] const std::string& lane(int resource) const { return lanes_[static_cast<std::size_t>(resource)].lane; }
    // What lane(resource) renders, crossed by a request to or from `tier` (a device's
    // lane is its own tier's; a collective's flow crosses a link for no tier: kNoTier).
    [[nodiscard]] LaneKey key(int resource, TierId tier) const {
        const Lane& l = lanes_[static_cast<std::size_t>(resource)];
        const LaneKind kind = !l.link ? LaneKind::Disk : l.peer ? LaneKind::PeerLink : LaneKind::Link;
        return {kind, l.forward ? Direction::Out : Direction::In, l.link ? tier : l.tier};
    }
    [[nodiscard]] const std::string& route_text(int gpu, bool write) const;  // "pcie0+switch0"

    // Resource `resource` was occupied from start_ms to end_ms by a request moving `bytes`.
    void occupied(int resource, double start_ms, double end_ms, std::uint64_t bytes);

    // The GPU-to-GPU routes a data-parallel step's collectives use (docs/parallel.md):
    // their links get lanes too (NVLink's: "nvlinkI tx" / "rx"). Called once, after describe.
    void describe_peers(const SimPlatform& platform);
    [[nodiscard]] const std::vector<int>& peer_route(int from, int to) const {
        return peer_routes_[static_cast<std::size_t>(from) * peer_count_ + static_cast<std::size_t>(to)];
    }
    // A collective's flow: counted apart from the requests' so check_log accounts for both.
    void peer_occupied(int resource, double start_ms, double end_ms, std::uint64_t bytes);

    // Busy time (union of the intervals) and utilisation (busy / step_ms) per link
    // direction and per disk, in the platform's order.
    [[nodiscard]] std::vector<NodeFigures::Link> links(double step_ms) const;
    [[nodiscard]] std::vector<NodeFigures::Disk> disks(double step_ms) const;

    // Per resource lane, the bytes of the log's activities on it equal those this meter
    // counted and those the log's requests moved through it (their GPU's route, their
    // disk); throws InvariantError naming the lane. Only for a log that recorded.
    void check_log(const EventLog& log) const;

private:
    struct Lane {
        std::string name;  // the link or disk ("pcie0", "disk0")
        std::string lane;  // "pcie0 d2h", "disk0 write"
        bool link = true;
        bool forward = true;  // d2h, or a write (tx on a GPU-to-GPU link)
        bool peer = false;    // a link only GPU-to-GPU routes cross (NVLink)
        TierId tier = kNoTier;  // a device's tier
        double bytes_per_s = 0;
        std::uint64_t bytes = 0;
        std::uint64_t peer_bytes = 0;  // of `bytes`, what collectives moved
        std::vector<std::pair<double, double>> intervals;
    };
    int lane_of(const std::string& name, bool link, bool forward, double bytes_per_s, bool peer = false, TierId tier = kNoTier);
    [[nodiscard]] static double busy_ms(std::vector<std::pair<double, double>> intervals);

    std::vector<Lane> lanes_;
    std::vector<std::pair<std::vector<int>, std::vector<int>>> routes_;  // per GPU: to the host, back
    std::vector<std::pair<std::string, std::string>> route_texts_;
    std::vector<std::vector<std::pair<int, int>>> device_lanes_;  // per GPU, per tier: write, read (-1: none)
    std::vector<std::vector<int>> peer_routes_;    // from * peer_count_ + to
    std::size_t peer_count_ = 0;
};

}  // namespace memsim
