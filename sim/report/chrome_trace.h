// trace.json: the event log in the Trace Event Format, which Perfetto
// (ui.perfetto.dev) and chrome://tracing open. One process "memsim"; one track
// (tid) per lane, named by thread_name metadata, in the lanes' drawing order (a lane
// whose activities overlap in time gets extra tracks "NAME (2)", ... so that events on
// one track never partly overlap);
// every activity is a complete event ("X") with its operator, tensors and bytes in
// args; memory in use, live bytes and the budget are counter tracks ("C"); the
// forward/backward boundary is a global instant event. Timestamps are
// microseconds of simulated time, rounded to the nanosecond, non-decreasing per track.
// On a node (EventLog::node, docs/tiers.md): one process per GPU ("GPU g", pid g + 1)
// with its lanes and memory counters, and one "node" with the resource lanes and host RAM.
#pragma once

#include <string>

#include "models/workload/workload.h"
#include "sim/engine/event_log.h"

namespace memsim {

// Event names are the labels of events.csv (activity_labels.h); `workload` names tensors.
// The text of trace.json (without its final newline).
std::string chrome_trace_text(const EventLog& log, const Workload* workload = nullptr);
void write_chrome_trace(const EventLog& log, const std::string& path, const Workload* workload = nullptr);

}  // namespace memsim
