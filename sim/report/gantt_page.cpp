#include "sim/report/gantt_page.h"

#include "sim/report/gantt_assets.h"  // generated from the gantt*.js files and gantt.css (CMakeLists.txt)

namespace memsim::gantt_page {

const char* const kStyle = kGanttStyle;
const char* const kScript = kGanttScript;
const char* const kTooltipScript = kGanttTooltipScript;
const char* const kNodeScript = kGanttNodeScript;

}  // namespace memsim::gantt_page
