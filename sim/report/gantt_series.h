// The Gantt page's memory panel as JSON, from one GPU's log: the memory curve (time,
// in use, live, and allocated when the allocator reports it) and memory by kind (only
// the kinds the run had, bottom of the stack first). Shared by the single-GPU page and
// the node page, which makes one of each per GPU.
#pragma once

#include <nlohmann/json.hpp>

#include "sim/engine/event_log.h"
#include "models/workload/workload.h"

namespace memsim {

// Times rounded to the nanosecond (-0 as 0), as every time on the page.
double gantt_round_ns(double ms);

// [[t, in use, live(, allocated)]...] in time order; `end_ms` grows to the last sample.
nlohmann::json gantt_memory_series(const EventLog& log, double& end_ms);
// null, or {names, colors, rows: [[t, bytes per kind...]...]}; `end_ms` grows to the last row.
nlohmann::json gantt_memory_kinds(const EventLog& log, const Workload& workload, double& end_ms);

}  // namespace memsim
