#include "sim/report/outputs.h"

#include <filesystem>

#include "models/allocators.h"
#include "sim/report/chrome_trace.h"
#include "sim/report/events_csv.h"
#include "sim/report/gantt_html.h"
#include "sim/report/run_header.h"
#include "sim/report/torch_snapshot_output.h"

namespace memsim {

namespace {

std::vector<std::string> write_outputs(const EventLog& log, const Summary& summary, const RunHeader& header,
                                       const Workload* workload, const std::string& dir, bool events, bool gantt, bool trace) {
    const std::filesystem::path out(dir);
    if (events || gantt || trace) std::filesystem::create_directories(out);
    std::vector<std::string> written;
    if (events) write_events_csv(log, written.emplace_back((out / "events.csv").string()), workload);
    if (gantt) write_gantt_html(log, summary, header, workload, written.emplace_back((out / "gantt.html").string()));
    if (trace) write_chrome_trace(log, written.emplace_back((out / "trace.json").string()), workload);
    return written;
}

}  // namespace

std::vector<std::string> write_run_outputs(const EventLog& log, const Summary& summary, const Workload& workload,
                                           const Scenario& scenario, const std::string& dir) {
    std::vector<std::string> written = write_outputs(log, summary, run_header(scenario, workload, summary), &workload, dir,
                                                     scenario.output.events, scenario.output.gantt, scenario.output.trace);
    if (scenario.output.torch_snapshot) {
        std::filesystem::create_directories(dir);
        const std::string path = (std::filesystem::path(dir) / "memory_snapshot.pickle").string();
        // The allocator's configuration text (its row names the parameter), as the run had it.
        const AllocatorRow* row = find_row(allocator_table(), scenario.policy.allocator);
        const auto& params = scenario.policy.allocator_params;
        const auto conf = row && !row->flags.config_param.empty() ? params.find(row->flags.config_param) : params.end();
        write_torch_snapshot(log, &workload, conf != params.end() ? std::get<std::string>(conf->second) : "", path);
        written.push_back(path);
    }
    return written;
}

std::vector<std::string> write_run_outputs(const EventLog& log, const Summary& summary, const std::string& title, const std::string& dir,
                       bool events, bool gantt, bool trace) {
    return write_outputs(log, summary, RunHeader{title, {}}, nullptr, dir, events, gantt, trace);
}

}  // namespace memsim
