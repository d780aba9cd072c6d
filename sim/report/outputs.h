// The files a run writes: one writer per row of the outputs table (sim/scenario/
// output_table.h), joined to it by name, summary.json among them.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "models/workload/workload.h"
#include "sim/engine/event_log.h"
#include "sim/engine/summary.h"
#include "sim/report/run_header.h"
#include "sim/scenario/scenario.h"

namespace memsim {

// What a writer reads. Without a workload tensors are named "#ID" (disk rows keep their
// names) and there is no memory by kind; without a scenario, no allocator configuration
// in the snapshot and no summary.json.
struct RunOutputInput {
    const EventLog& log;
    const Summary& summary;
    const RunHeader& header;
    const Workload* workload = nullptr;
    const Scenario* scenario = nullptr;
};

struct OutputWriterRow {
    std::string_view name;  // the row of output_table() it writes
    void (*write)(const RunOutputInput& in, const std::string& path);
};
// One writer per row of output_table() (a test checks both ways).
std::span<const OutputWriterRow> output_writers();

// Writes every output the scenario turns on, in the table's order, then summary.json
// (last: a run whose other outputs failed leaves no summary to call it ok); returns the
// paths written besides summary.json, in order. The workload names tensors in labels and
// gives memory by kind; the scenario gives the Gantt header and the resolved scenario.
std::vector<std::string> write_run_outputs(const EventLog& log, const Summary& summary, const Workload& workload,
                                           const Scenario& scenario, const std::string& dir);

// Without the workload and scenario: the outputs `output` turns on (no summary.json),
// tensors named "#ID", no memory by kind, no settings line in the Gantt header.
std::vector<std::string> write_run_outputs(const EventLog& log, const Summary& summary, const std::string& title,
                                           const std::string& dir, const OutputSpec& output);

}  // namespace memsim
