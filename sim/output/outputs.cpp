#include "sim/output/outputs.h"

#include <filesystem>

#include "sim/output/chrome_trace.h"
#include "sim/output/events_csv.h"
#include "sim/output/gantt_html.h"

namespace memsim {

std::vector<std::string> write_run_outputs(const EventLog& log, const Summary& summary, const std::string& title, const std::string& dir,
                       bool events, bool gantt, bool trace) {
    const std::filesystem::path out(dir);
    if (events || gantt || trace) std::filesystem::create_directories(out);
    std::vector<std::string> written;
    if (events) write_events_csv(log, written.emplace_back((out / "events.csv").string()));
    if (gantt) write_gantt_html(log, summary, title, written.emplace_back((out / "gantt.html").string()));
    if (trace) write_chrome_trace(log, written.emplace_back((out / "trace.json").string()));
    return written;
}

}  // namespace memsim
