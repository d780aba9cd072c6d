// The static parts of gantt.html: its style and script, written as the real files
// report/gantt.css and report/gantt.js and embedded at build time.
#pragma once

namespace memsim::gantt_page {

extern const char* const kStyle;
extern const char* const kScript;

}  // namespace memsim::gantt_page
