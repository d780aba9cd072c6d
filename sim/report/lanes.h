// Which lanes a log has and in what order they are drawn: the known kinds in a
// fixed order first, then any new kind sorted by name, so a new activity kind
// shows up in every output without touching the renderers.
#pragma once

#include <string>
#include <vector>

#include "sim/engine/event_log.h"

namespace memsim {

std::vector<std::string> ordered_lanes(const EventLog& log);
bool is_known_lane(const std::string& lane);
// "GPU compute" for "compute", "disk write" for "disk_write"; a new kind keeps its own name.
std::string lane_display_name(const std::string& lane);

}  // namespace memsim
