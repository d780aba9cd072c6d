#include "sim/report/lanes.h"

#include <algorithm>
#include <array>
#include <set>

namespace memsim {

namespace {
const std::array<const char*, 5> kKnownLaneOrder = {lane::kCompute, lane::kRecompute, tier_row(kDefaultTier).lane_out,
                                                    tier_row(kDefaultTier).lane_in, lane::kStall};
}

std::vector<std::string> ordered_lanes(const EventLog& log) {
    std::set<std::string> present;
    for (const Activity& a : log.activities) present.emplace(a.lane);
    std::vector<std::string> lanes;
    for (const char* known : kKnownLaneOrder)
        if (present.erase(known) > 0) lanes.emplace_back(known);
    lanes.insert(lanes.end(), present.begin(), present.end());  // std::set: already sorted
    return lanes;
}

std::map<std::string, LaneKey> lane_keys(const EventLog& log) {
    std::map<std::string, LaneKey> keys;
    for (const Activity& a : log.activities) keys.emplace(a.lane, a.key);
    return keys;
}

bool is_known_lane(const std::string& lane) {
    return std::find(kKnownLaneOrder.begin(), kKnownLaneOrder.end(), lane) != kKnownLaneOrder.end();
}

std::string lane_display_name(const std::string& lane) {
    if (lane == lane::kCompute) return "GPU compute";
    if (lane == lane::kRecompute) return "recompute";
    if (lane == tier_row(kDefaultTier).lane_out) return std::string(tier_row(kDefaultTier).display_out);
    if (lane == tier_row(kDefaultTier).lane_in) return std::string(tier_row(kDefaultTier).display_in);
    if (lane == lane::kStall) return "stall";
    return lane;
}

const char* lane_fixed_color(const std::string& lane, const LaneKey& key) {
    if (key.kind == LaneKind::Swap)
        return key.direction == Direction::Out ? tier_row(key.tier).color_out : tier_row(key.tier).color_in;
    if (lane == lane::kCompute) return "#4e79a7";
    if (lane == lane::kRecompute) return "#f28e2b";
    if (lane == lane::kStall) return "#b07aa1";
    return nullptr;
}

}  // namespace memsim
