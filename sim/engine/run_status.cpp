#include "sim/engine/run_status.h"

namespace memsim {

const std::vector<RunStatus>& run_statuses() {
    static const std::vector<RunStatus> table = {
        {"ok", true, true, "the iteration ran to its end"},
        {"oom", false, true, "the simulation stopped: an allocation did not fit the device budget"},
        {"thrash", false, true, "the simulation (or the planner) stopped: recomputation passed the limit"},
        {"host_full", false, true, "the simulation stopped: a swapped tensor or its bounce buffer did not fit in host RAM"},
        {"infeasible", false, false, "the planner proved that no plan fits the budget; nothing was simulated"},
        {"unsolved", false, false, "the planner found no plan within its limits; nothing was simulated"},
        {"error", false, false, "the run failed (bad input, a crash); the message says why"},
    };
    return table;
}

const RunStatus* find_run_status(std::string_view name) {
    for (const RunStatus& s : run_statuses())
        if (s.name == name) return &s;
    return nullptr;
}

std::string run_status_names() {
    std::string out;
    for (const RunStatus& s : run_statuses()) {
        if (!out.empty()) out += ", ";
        out += s.name;
    }
    return out;
}

bool status_finished(std::string_view name) {
    const RunStatus* s = find_run_status(name);
    return s && s->finished;
}

bool status_simulated(std::string_view name) {
    const RunStatus* s = find_run_status(name);
    return s && s->simulated;
}

}  // namespace memsim
