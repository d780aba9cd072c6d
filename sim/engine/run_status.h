// Every status a run's summary.json can carry, in one table: what the engine and the
// planners write, and what sweep, merge, find and compare read back. A status not in
// the table is a summary memsim did not write.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace memsim {

struct RunStatus {
    std::string_view name;
    // The iteration ran to its end: time_ms is the iteration's time and overhead a ratio.
    bool finished;
    // The simulation runs until this status stops it: time_ms (and stopped_at_ms when it
    // did not finish) is its clock then. A planner that stops before the simulation
    // (infeasible, unsolved, and a planner's thrash) leaves 0 there and no stopped_at_ms.
    bool simulated;
    std::string_view meaning;  // one line, for docs and messages
};

// ok, oom, thrash, host_full, infeasible, unsolved, error, in that order.
const std::vector<RunStatus>& run_statuses();
// The entry of `name`, or nullptr for a status memsim does not write.
const RunStatus* find_run_status(std::string_view name);
// "ok, oom, thrash, host_full, infeasible, unsolved, error": for messages.
std::string run_status_names();
// finished / simulated of a known status; false for an unknown one.
bool status_finished(std::string_view name);
bool status_simulated(std::string_view name);

}  // namespace memsim
