// The files a run writes besides summary.json, as the scenario's `output:` asks.
#pragma once

#include <string>
#include <vector>

#include "models/workload/workload.h"
#include "sim/engine/event_log.h"
#include "sim/scenario/scenario.h"
#include "sim/engine/summary.h"

namespace memsim {

// Creates `dir` if needed and writes events.csv, gantt.html and trace.json as
// scenario.output asks; returns the paths written, in that order. The workload names
// tensors in labels and gives memory by kind; the scenario gives the Gantt header.
std::vector<std::string> write_run_outputs(const EventLog& log, const Summary& summary, const Workload& workload,
                                           const Scenario& scenario, const std::string& dir);

// Without the workload and scenario: tensors named "#ID" (disk rows keep their names), no
// memory by kind, no settings line in the Gantt header.
std::vector<std::string> write_run_outputs(const EventLog& log, const Summary& summary, const std::string& title, const std::string& dir,
                       bool events, bool gantt, bool trace);

}  // namespace memsim
