#include "report/gantt_page.h"

#include "report/gantt_assets.h"  // generated from gantt.js and gantt.css (CMakeLists.txt)

namespace memsim::gantt_page {

const char* const kStyle = kGanttStyle;
const char* const kScript = kGanttScript;

}  // namespace memsim::gantt_page
