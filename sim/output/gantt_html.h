// gantt.html: one self-contained page (inline SVG drawn by a little JavaScript
// from data embedded in the page; no network access) showing a run: one lane per
// activity kind, the memory-in-use curve with the budget line under it, the
// forward/backward boundary, hover tooltips, zoom (wheel, buttons) and pan (drag)
// on the time axis. Activities narrower than a pixel at the current zoom are
// merged into aggregate bars, so 10^4 activities stay readable and fast. Opening
// gantt.html#t=A,B shows the window from A to B ms.
//
// DOM contract (tests rely on it): each lane is <g class="lane" data-lane="LANE">;
// each activity drawn alone is <rect class="bar" data-lane="LANE" data-i="INDEX">
// (INDEX into the log's activities); a merged run is <rect class="agg" data-lane="LANE"
// data-count="N">. The memory curve is <path id="memory-in-use">, the budget
// <line id="budget">, the boundary <line id="forward-end">.
#pragma once

#include <string>

#include "sim/event_log.h"
#include "sim/summary.h"

namespace memsim {

std::string gantt_html(const EventLog& log, const Summary& summary, const std::string& title);
void write_gantt_html(const EventLog& log, const Summary& summary, const std::string& title, const std::string& path);

}  // namespace memsim
