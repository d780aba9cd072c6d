#include "sim/report/lanes.h"

#include <algorithm>
#include <array>
#include <set>

namespace memsim {

namespace {
const std::array<const char*, 5> kKnownLaneOrder = {lane::kCompute, lane::kRecompute, lane::kDiskWrite,
                                                     lane::kDiskRead, lane::kStall};
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

bool is_known_lane(const std::string& lane) {
    return std::find(kKnownLaneOrder.begin(), kKnownLaneOrder.end(), lane) != kKnownLaneOrder.end();
}

std::string lane_display_name(const std::string& lane) {
    if (lane == lane::kCompute) return "GPU compute";
    if (lane == lane::kRecompute) return "recompute";
    if (lane == lane::kDiskWrite) return "disk write";
    if (lane == lane::kDiskRead) return "disk read";
    if (lane == lane::kStall) return "stall";
    return lane;
}

}  // namespace memsim
