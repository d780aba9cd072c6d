// events.csv: the event log as one CSV table, for spreadsheets and pandas.
//
// One header, four kinds of rows (column `record`):
//   activity  lane, start_ms, end_ms, duration_ms, op, label, tensors (";"-separated ids), bytes
//   mark      lane = the instant event's kind (evict_to_disk, drop, cancel_write), start_ms = when,
//             op, label, tensors = the tensor, bytes
//   memory    start_ms = sample time, bytes_in_use, live_bytes, budget_bytes (empty: no budget)
//   marker    label = "forward_end", start_ms = when the forward pass ended (only when known)
// `label` says what the row does in words, as the Gantt chart shows it ("swap out tensor 17
// (3.10 MiB)", "wait for tensor 17 (swap-in)", "recompute op 418 (conv) for tensor 17"; an
// operator's name for compute), see activity_labels.h. Activities come first in log order,
// then marks in log order, then memory samples in time order, then markers.
// Times have six decimals (ns); the same log gives the same bytes. On a node
// (EventLog::node, docs/tiers.md) every row ends with gpu, tier, link (docs/outputs.md).
#pragma once

#include <string>

#include "models/workload/workload.h"
#include "sim/engine/event_log.h"

namespace memsim {

// `workload` names tensors in labels; without it they are "#ID" (disk rows keep the name the log has).
std::string events_csv(const EventLog& log, const Workload* workload = nullptr);
void write_events_csv(const EventLog& log, const std::string& path, const Workload* workload = nullptr);

}  // namespace memsim
