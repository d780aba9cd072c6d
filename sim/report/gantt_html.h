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
// <line id="budget">, the boundary <line id="forward-end">. Each instant-event kind has a
// lane <g class="mark-lane" data-kind="KIND"> holding <path class="mark" data-kind="KIND"
// data-m="INDEX"> (INDEX into the log's marks), or <path class="mark-agg" data-count="N">
// for markers closer than 4 px; the header counts them in <span class="mark-count"
// data-kind="KIND">. Memory by kind is one <path class="kind-area" data-kind="NAME"> per
// kind, stacked, with a legend (<g class="memory-legend-item">) beside the panel.
// Hovering a bar or a marker shows its label and highlights (class "hl") every bar and
// marker of the same tensor's journey.
//
// A node's page (sim/report/gantt_node_data.h) also has, for several GPUs, a selector
// <span id="gpu-select"> of <button data-gpu="G|all"> and the selected GPU's figures in
// <span id="gpu-figures">; bars carry data-gpu="G"; group titles are <g class="lane-group">;
// the resource lanes are drawn one stripe per GPU; "all" draws each GPU's memory in use as
// <path class="gpu-memory" data-gpu="G">; the host-RAM panel is <g class="host-memory">
// with <path id="host-in-use"> and the capacity <line id="host-capacity">.
#pragma once

#include <string>

#include "models/workload/workload.h"
#include "sim/engine/event_log.h"
#include "sim/report/run_header.h"
#include "sim/engine/summary.h"

namespace memsim {

// `workload` names tensors and gives memory by kind; without it neither is shown.
std::string gantt_html(const EventLog& log, const Summary& summary, const RunHeader& header, const Workload* workload);
void write_gantt_html(const EventLog& log, const Summary& summary, const RunHeader& header, const Workload* workload,
                      const std::string& path);
// Only a title: no settings line, no tensor names, no memory by kind.
std::string gantt_html(const EventLog& log, const Summary& summary, const std::string& title);
void write_gantt_html(const EventLog& log, const Summary& summary, const std::string& title, const std::string& path);

}  // namespace memsim
