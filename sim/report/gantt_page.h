// The static parts of gantt.html: its style and scripts, written as the real files
// sim/report/gantt.css, sim/report/gantt_tooltip.js, sim/report/gantt.js and (a node's page only)
// sim/report/gantt_node.js, embedded at build time.
#pragma once

namespace memsim::gantt_page {

extern const char* const kStyle;
extern const char* const kScript;
extern const char* const kTooltipScript;
extern const char* const kNodeScript;

}  // namespace memsim::gantt_page
