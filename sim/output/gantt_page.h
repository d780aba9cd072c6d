// The static parts of gantt.html (style and script), kept apart from the C++
// that fills in the data.
#pragma once

namespace memsim::gantt_page {

extern const char* const kStyle;
extern const char* const kScript;

}  // namespace memsim::gantt_page
