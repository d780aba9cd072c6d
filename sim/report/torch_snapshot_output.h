// memory_snapshot.pickle (output.torch_snapshot): a torch_caching run in the format of
// PyTorch's memory snapshot, to open in PyTorch's memory viewer like a real run
// (docs/outputs.md, "memory_snapshot.pickle"). Built from the event log's allocator
// records alone: the segments at the end of the run and the device trace.
#pragma once

#include <string>

#include "models/io/memory_snapshot.h"
#include "models/workload/workload.h"
#include "sim/engine/event_log.h"

namespace memsim {

// `workload` names the operators in the frames (nullptr: numbers only); `alloc_conf` is
// policy.torch_alloc_conf.
MemorySnapshot snapshot_from_log(const EventLog& log, const Workload* workload, const std::string& alloc_conf);

void write_torch_snapshot(const EventLog& log, const Workload* workload, const std::string& alloc_conf, const std::string& path);

}  // namespace memsim
