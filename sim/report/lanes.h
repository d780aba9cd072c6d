// Which lanes a log has and in what order they are drawn: the known kinds in a
// fixed order first, then any new kind sorted by name, so a new activity kind
// shows up in every output without touching the renderers. A lane's key (kind,
// direction, tier) is the one its activities carry: the outputs test it, not the string.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "sim/engine/event_log.h"

namespace memsim {

std::vector<std::string> ordered_lanes(const EventLog& log);
// Each lane's key, from its first activity (a link's tier varies per request: the key's
// tier is its first request's).
std::map<std::string, LaneKey> lane_keys(const EventLog& log);
// compute, recompute, the default tier's swaps (kDefaultTier: a run without a node),
// stall: the lanes of a run without a node drawn in a fixed order and colour.
bool is_known_lane(const std::string& lane);
// "GPU compute" for "compute", "disk write" for the default tier's "disk_write"; a new
// kind keeps its own name.
std::string lane_display_name(const std::string& lane);
// The fixed colour of a GPU's lane (compute, recompute, stall, a tier's swaps from its
// row), or nullptr.
const char* lane_fixed_color(const std::string& lane, const LaneKey& key);

}  // namespace memsim
