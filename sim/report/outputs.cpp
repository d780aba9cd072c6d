#include "sim/report/outputs.h"

#include <filesystem>

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
        const auto conf = scenario.policy.allocator_params.find("torch_alloc_conf");
        write_torch_snapshot(log, &workload, conf != scenario.policy.allocator_params.end() ? std::get<std::string>(conf->second) : "",
                             path);
        written.push_back(path);
    }
    return written;
}

std::vector<std::string> write_run_outputs(const EventLog& log, const Summary& summary, const std::string& title, const std::string& dir,
                       bool events, bool gantt, bool trace) {
    return write_outputs(log, summary, RunHeader{title, {}}, nullptr, dir, events, gantt, trace);
}

}  // namespace memsim
