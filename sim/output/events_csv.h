// events.csv: the event log as one CSV table, for spreadsheets and pandas.
//
// One header, three kinds of rows (column `record`):
//   activity  lane, start_ms, end_ms, duration_ms, op, label, tensors (";"-separated ids), bytes
//   memory    start_ms = sample time, bytes_in_use, live_bytes, budget_bytes (empty: no budget)
//   marker    label = "forward_end", start_ms = when the forward pass ended (only when known)
// Activities come first in log order, then memory samples in time order, then markers.
// Times have six decimals (ns); the same log gives the same bytes.
#pragma once

#include <string>

#include "sim/event_log.h"

namespace memsim {

std::string events_csv(const EventLog& log);
void write_events_csv(const EventLog& log, const std::string& path);

}  // namespace memsim
