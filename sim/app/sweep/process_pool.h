// Runs jobs as child processes, at most N at a time, each with its stdout and stderr
// going to its own log file, so one job crashing cannot take the others down. A job is
// either a program to start (argv) or a function to run in a fork of this process
// (body): the sweep forks after loading its workloads, so each point starts with the
// workload in memory and without paying the program's start-up again.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace memsim {

struct ProcessJob {
    std::vector<std::string> argv;  // argv[0] is the program path; used when body is empty
    std::string log_path;           // receives stdout and stderr
    // Runs in the parent just before the job starts (load what the child will need).
    std::function<void()> prepare;
    // Runs in the forked child; its return value is the exit code. It must not return
    // into the parent's code: the child ends with _exit after it.
    std::function<int()> body;
    // Runs in the parent just after the job's process was started, or failed to start.
    std::function<void()> started;
};

struct ProcessOutcome {
    int exit_code = 0;    // the process's exit status, 128+signal when killed, 127 when it could not start
    double seconds = 0;   // wall-clock run time
};

// Runs every job; calls on_finish(job index, outcome) as each one ends, and on_tick()
// about four times a second while any is running (to redraw a progress display).
// Each job runs in a process group of its own. SIGINT, SIGTERM or SIGHUP stops the
// pool: no job starts after it, each running job's group gets the signal (SIGKILL
// follows after a grace), and every job is reaped before the pool returns the signal
// (on_finish is not called for them); 0 when every job ran.
int run_processes(const std::vector<ProcessJob>& jobs, int parallel,
                   const std::function<void(std::size_t, const ProcessOutcome&)>& on_finish,
                   const std::function<void()>& on_tick);

}  // namespace memsim
