#include "sim/report/outputs.h"

#include <array>
#include <filesystem>
#include <stdexcept>

#include "models/allocators.h"
#include "models/io/atomic_file.h"
#include "sim/report/chrome_trace.h"
#include "sim/report/events_csv.h"
#include "sim/report/gantt_html.h"
#include "sim/report/torch_snapshot_output.h"
#include "sim/scenario/output_table.h"

namespace memsim {

namespace {

void write_events(const RunOutputInput& in, const std::string& path) { write_events_csv(in.log, path, in.workload); }

void write_gantt(const RunOutputInput& in, const std::string& path) {
    write_gantt_html(in.log, in.summary, in.header, in.workload, path);
}

void write_trace(const RunOutputInput& in, const std::string& path) { write_chrome_trace(in.log, path, in.workload); }

void write_snapshot(const RunOutputInput& in, const std::string& path) {
    // The allocator's configuration text (its row names the parameter), as the run had it.
    std::string conf_text;
    if (in.scenario) {
        const AllocatorRow* row = find_row(allocator_table(), in.scenario->policy.allocator);
        const auto& params = in.scenario->policy.allocator_params;
        const auto conf = row && !row->flags.config_param.empty() ? params.find(row->flags.config_param) : params.end();
        if (conf != params.end()) conf_text = std::get<std::string>(conf->second);
    }
    write_torch_snapshot(in.log, in.workload, conf_text, path);
}

// The figures and the scenario as resolved (after the platform file and every --set).
void write_summary(const RunOutputInput& in, const std::string& path) {
    if (!in.scenario) throw std::logic_error("summary.json needs the scenario");
    nlohmann::json j = to_json(in.summary);
    j["scenario_resolved"] = yaml_to_json(in.scenario->resolved);
    write_file_atomically(path, j.dump(2) + "\n");
}

const OutputWriterRow* writer_of(std::string_view name) {
    for (const OutputWriterRow& row : output_writers())
        if (row.name == name) return &row;
    throw std::logic_error("no writer for output " + std::string(name));
}

// The rows of the table that `wanted` picks, written in its order.
template <typename Wanted>
std::vector<std::string> write_outputs(const RunOutputInput& in, const std::string& dir, Wanted wanted) {
    const std::filesystem::path out(dir);
    std::vector<std::string> written;
    bool made = false;
    for (const OutputRow& row : output_table()) {
        if (!wanted(row)) continue;
        if (!made) std::filesystem::create_directories(out);
        made = true;
        const std::string path = (out / row.file).string();
        writer_of(row.name)->write(in, path);
        if (!row.always) written.push_back(path);
    }
    return written;
}

}  // namespace

std::span<const OutputWriterRow> output_writers() {
    static const std::array<OutputWriterRow, 5> writers = {{
        {"events", write_events},
        {"gantt", write_gantt},
        {"trace", write_trace},
        {"torch_snapshot", write_snapshot},
        {"summary", write_summary},
    }};
    return writers;
}

std::vector<std::string> write_run_outputs(const EventLog& log, const Summary& summary, const Workload& workload,
                                           const Scenario& scenario, const std::string& dir) {
    const RunHeader header = run_header(scenario, workload, summary);
    return write_outputs({log, summary, header, &workload, &scenario}, dir,
                         [&](const OutputRow& row) { return row.always || scenario.output.wants(row.name); });
}

std::vector<std::string> write_run_outputs(const EventLog& log, const Summary& summary, const std::string& title,
                                           const std::string& dir, const OutputSpec& output) {
    const RunHeader header{title, {}};
    return write_outputs({log, summary, header, nullptr, nullptr}, dir,
                         [&](const OutputRow& row) { return !row.always && output.wants(row.name); });
}

}  // namespace memsim
