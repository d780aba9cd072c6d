#include "sim/output/outputs.h"

#include <filesystem>

#include "sim/output/chrome_trace.h"
#include "sim/output/events_csv.h"
#include "sim/output/gantt_html.h"

namespace memsim {

void write_run_outputs(const EventLog& log, const Summary& summary, const std::string& title, const std::string& dir,
                       bool events, bool gantt, bool trace) {
    const std::filesystem::path out(dir);
    if (events || gantt || trace) std::filesystem::create_directories(out);
    if (events) write_events_csv(log, (out / "events.csv").string());
    if (gantt) write_gantt_html(log, summary, title, (out / "gantt.html").string());
    if (trace) write_chrome_trace(log, (out / "trace.json").string());
}

}  // namespace memsim
