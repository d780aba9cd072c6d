// Runs commands as child processes, at most N at a time, each with its stdout and
// stderr going to its own log file. Used by the sweep: every point is a separate
// `memsim run` process, so one point crashing cannot take the sweep down.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace memsim {

struct ProcessJob {
    std::vector<std::string> argv;  // argv[0] is the program path
    std::string log_path;           // receives stdout and stderr
};

struct ProcessOutcome {
    int exit_code = 0;    // the process's exit status, 128+signal when killed, 127 when it could not start
    double seconds = 0;   // wall-clock run time
};

// Runs every job; calls on_finish(job index, outcome) as each one ends, and on_tick()
// about four times a second while any is running (to redraw a progress display).
void run_processes(const std::vector<ProcessJob>& jobs, int parallel,
                   const std::function<void(std::size_t, const ProcessOutcome&)>& on_finish,
                   const std::function<void()>& on_tick);

}  // namespace memsim
