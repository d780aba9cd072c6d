// The tiers as one table (models/platform/tier.h) and their TierSpec rows
// (PlatformSpec::tiers()): what a row renders to and what a platform's keys give each tier.
#include <catch2/catch.hpp>

#include <set>
#include <string>

#include "models/platform/platform_spec.h"
#include "models/swap/placement/placement_rule.h"
#include "sim/engine/event_log.h"

using namespace memsim;

TEST_CASE("tier table: a swap's lane is its row's, every row's lanes and keys distinct") {
    CHECK(std::string(swap_lane({LaneKind::Swap, Direction::Out, kHostRamTier})) == "host_write");
    CHECK(std::string(swap_lane({LaneKind::Swap, Direction::In, kHostRamTier})) == "host_read");
    CHECK(std::string(swap_lane({LaneKind::Swap, Direction::Out, kDiskTier})) == "disk_write");
    CHECK(std::string(swap_lane({LaneKind::Swap, Direction::In, kDiskTier})) == "disk_read");
    std::set<std::string> lanes, keys;
    for (const TierRow& row : kTierRows) {
        lanes.insert(row.lane_out);
        lanes.insert(row.lane_in);
        keys.emplace(row.key);
    }
    CHECK(lanes.size() == 2 * kTierCount);
    CHECK(keys.size() == kTierCount);
    CHECK(tier_row(kDefaultTier).key == "disk");  // where a GPU swaps without a node
}

TEST_CASE("tier table: each tier's TierSpec has every GPU's route, its devices' rates and how its space counts") {
    PlatformSpec p;
    p.gpus = 2;
    p.host_link = LinkSpec{25e9, 0.01};
    p.host_memory = 4096;
    p.disks = {DiskSpec{3.2e9, 1e9, 0.012, 0.016}, DiskSpec{1e3, 2e3, 0, 0}};
    p.disk = p.disks.front();
    const std::vector<TierSpec> tiers = p.tiers();
    REQUIRE(tiers.size() == kTierCount);
    const TierSpec& host = tiers[kHostRamTier];
    CHECK(host.name == "host RAM");
    CHECK(host.capacity == std::optional<std::uint64_t>(4096));
    CHECK(host.holds_space);
    CHECK_FALSE(host.staged_by_path);
    CHECK(host.devices.empty());
    REQUIRE(host.routes.size() == 2);  // one per GPU: the PCIe link, each way
    CHECK(host.routes[1].write_bytes_per_s == 25e9);
    CHECK(host.routes[1].read_latency_ms == 0.01);
    const TierSpec& disk = tiers[kDiskTier];
    CHECK_FALSE(disk.holds_space);
    CHECK(disk.staged_by_path);
    REQUIRE(disk.devices.size() == 2);
    CHECK(disk.devices[0].write_bytes_per_s == 1e9);
    CHECK(disk.devices[0].write_latency_ms == 0.016);
    CHECK(disk.routes.size() == 2);
    // Without a node: no route, the one disk.
    const std::vector<TierSpec> plain = PlatformSpec{}.tiers();
    CHECK(plain[kDiskTier].routes.empty());
    REQUIRE(plain[kDiskTier].devices.size() == 1);
    CHECK(plain[kDiskTier].devices[0].read_bytes_per_s == kPhoneDiskBytesPerS);
}

TEST_CASE("tier table: a first-fit placement takes the first tier with room, the last regardless") {
    const auto rule = make_first_fit_placement({kHostRamTier, kDiskTier});
    PlacementInput in;
    in.free[kHostRamTier] = 100;
    in.free[kDiskTier] = 0;  // the last tier is not asked
    in.bytes = 60;
    in.staging_bytes = 40;  // host RAM keeps room for a bounce buffer: 60 + 40 <= 100
    CHECK(rule->place(in) == std::optional<TierId>(kHostRamTier));
    in.staging_bytes = 41;
    CHECK(rule->place(in) == std::optional<TierId>(kDiskTier));
    // Another order: the staging room is host RAM's alone.
    const auto reversed = make_first_fit_placement({kDiskTier, kHostRamTier});
    in.free[kDiskTier] = 60;
    CHECK(reversed->place(in) == std::optional<TierId>(kDiskTier));
    in.free[kDiskTier] = 59;
    CHECK(reversed->place(in) == std::optional<TierId>(kHostRamTier));
}
