// Settings that a run ignores or that contradict each other: reported, not fatal, in
// summary.json's `warnings`, in the printed table and on stderr. One list gathered in
// one place, so a new kind of warning (e.g. the swap model's own) is appended here.
#pragma once

#include <string>
#include <vector>

#include "sim/scenario/scenario.h"
#include "models/workload/workload.h"
#include "sim/engine/summary.h"

namespace memsim {

// The scenario's own warnings (a --set overridden later), then prefetch settings without
// a swap mode that prefetches (unless the scenario's sweep runs them at one that does),
// then disk settings written for a run that never swaps.
std::vector<std::string> scenario_warnings(const Scenario& s);

// Everything to warn about once the run is done: scenario_warnings, then the swap
// model's warnings about its result (models/swap/swap_warnings.h).
std::vector<std::string> run_warnings(const Scenario& s, const Workload& w, const Summary& summary);

}  // namespace memsim
