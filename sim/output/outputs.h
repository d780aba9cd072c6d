// The files a run writes besides summary.json, as the scenario's `output:` asks.
#pragma once

#include <string>
#include <vector>

#include "sim/event_log.h"
#include "sim/summary.h"

namespace memsim {

// Creates `dir` if needed and writes events.csv, gantt.html and trace.json for the flags that are set;
// returns the paths written, in that order.
std::vector<std::string> write_run_outputs(const EventLog& log, const Summary& summary, const std::string& title, const std::string& dir,
                       bool events, bool gantt, bool trace);

}  // namespace memsim
