// The workloads the Python process has loaded, kept between memsim.run calls: a run of
// the same workload (the same workload section, the same files unchanged) is forked with
// it already in memory instead of parsing it again.
#pragma once

#include <cstdint>

#include "models/workload/workload.h"
#include "sim/scenario/scenario.h"

namespace memsim::python {

// load_workload(s), or the one loaded before for an equal workload section whose files
// (every file under a profile folder, the log, the snapshot) have the same size and
// modification time. Throws what load_workload throws; a failed load is not kept.
const Workload& cached_workload(const Scenario& s);

// How many times cached_workload parsed a workload (the tests count re-parses).
std::uint64_t workloads_parsed();

}  // namespace memsim::python
