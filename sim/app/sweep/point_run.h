// One sweep point run inside this process, exactly as `memsim run SCENARIO --set ...
// --out DIR` runs it (the same summary.json, outputs and printed text), on a workload
// the caller already loaded: the forked sweep loads each distinct workload once and
// calls this in a child process per point (see sweep_runner.h).
#pragma once

#include <ostream>
#include <string>

#include "models/workload/workload.h"
#include "sim/scenario/scenario.h"

namespace memsim {

// Runs the scenario on `w` (the workload load_workload(s) gives), writes DIR/summary.json
// and the outputs the scenario asks for, prints what `memsim run` prints to `out`/`err`.
// Returns `memsim run`'s exit code: 0 ok, 2 the scenario failed (oom, thrash); throws on
// bad input like `memsim run` would report it.
int run_point_here(Scenario s, const Workload& w, const std::string& dir, std::ostream& out, std::ostream& err);

}  // namespace memsim
