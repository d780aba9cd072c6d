// Work in a forked child process (memsim's only other fork is the optimal planner's
// solver, models/recompute/optimal/solver_process.h). A sweep's points run in
// children (sim/app/sweep/process_pool.h), and so do the measuring runs beside a run
// (sim/app/run/measuring_runs.h): SimGrid's clock never restarts within a process, so a
// simulation after another starts at a later absolute time and its times differ from a
// lone run's in the last bits; in a child forked before this process simulates, each
// starts on a fresh clock.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>

#include <signal.h>
#include <sys/types.h>

#include "models/io/process_end.h"

namespace memsim {

// Forks; the child runs `body` (an exception in it is caught: exit code 1) and leaves
// with _exit and its return value as exit code (no static destructors, no return into
// the caller's code). Flushes every stdio and iostream buffer first, so that nothing
// buffered is written twice. Returns the child's pid, or -1 (errno says why).
// The child dies with this process (PR_SET_PDEATHSIG: SIGKILL when it ends, however it
// ends; a parent gone before that was set ends the child at once), and starts with the
// default action for SIGINT, SIGTERM and SIGHUP (a sweep notes them; its points must not).
pid_t fork_child(const std::function<int()>& body);

// This process dies (SIGKILL) when `parent`, the process that started it, ends; ends at
// once (exit 1) if it has ended already. fork_child does this in every child; a sweep's
// spawned `memsim run --sweep-point` does it with the pid kParentPidVariable gives.
void die_with_parent(pid_t parent);
inline constexpr const char* kParentPidVariable = "MEMSIM_PARENT_PID";

// The signals a user stops memsim with: SIGINT, SIGTERM, SIGHUP.
inline constexpr std::array<int, 3> kStopSignals{SIGINT, SIGTERM, SIGHUP};

// While alive, the stop signals do not end memsim: they are noted, for the code that
// supervises children (a sweep's pool, the tracer) to pass on before it ends the way the
// signal would have (StoppedBySignal); the old dispositions come back at the end. Made
// before any child is started, so that no signal is lost in between.
class SignalsNoted {
public:
    SignalsNoted();
    ~SignalsNoted();
    SignalsNoted(const SignalsNoted&) = delete;
    SignalsNoted& operator=(const SignalsNoted&) = delete;
    // The last signal noted, or 0.
    static int received();

private:
    std::array<struct sigaction, kStopSignals.size()> old_{};
};

// Thrown when a stop signal ended the work after its children were stopped and reaped;
// the command then ends by that signal (sim/app/cli/guarded.cpp), as the caller's shell
// expects (exit status 128 + signal).
class StoppedBySignal : public std::runtime_error {
public:
    StoppedBySignal(int signum, const std::string& what) : std::runtime_error(what), signum_(signum) {}
    [[nodiscard]] int signum() const { return signum_; }

private:
    int signum_;
};

// signal_name(): models/io/process_end.h.

// `measure` started in a fork of this process, which goes on with its own work while
// the child runs (on a second core, the two overlap). A process that cannot fork is an
// error naming `what` and the OS reason, not a silent run in this process: that would
// shift this run's times in the last bits (see above).
class ChildMeasurement {
public:
    ChildMeasurement(const std::function<std::uint64_t()>& measure, const std::string& what);
    ChildMeasurement(const ChildMeasurement&) = delete;
    ChildMeasurement& operator=(const ChildMeasurement&) = delete;
    ~ChildMeasurement();  // a child never collected (this process failed first) is killed and reaped
    // Waits for the child: its value, or none if it failed (then error() says why). Once only.
    std::optional<std::uint64_t> result();
    // Why the child gave no value: its exception's message, or how it ended.
    [[nodiscard]] const std::string& error() const { return error_; }

private:
    int pid_ = -1;
    int read_fd_ = -1;
    std::string error_;
};

// A measurement that every process forked after its start can wait for: a sweep's
// points, forked while the measuring process runs, each need its value at their end.
// The value (or why there is none) goes to a page all of them share; the end of the
// measuring process tells every waiter at once, crashed or not: it holds the only
// writing end of a pipe, whose end-of-file each waiter reads. Order of use:
//   1. construct (before the measuring process is forked);
//   2. fork it; it calls publish() and ends;
//   3. in the forking process, call forked() just after (whether the fork worked or not);
//   4. wait() in any process forked after step 3, or in the forking one.
class SharedMeasurement {
public:
    explicit SharedMeasurement(const std::string& what);  // `what` names it in an error
    SharedMeasurement(const SharedMeasurement&) = delete;
    SharedMeasurement& operator=(const SharedMeasurement&) = delete;
    ~SharedMeasurement();
    // In the measuring process: the value, or why the measurement failed.
    void publish(std::uint64_t value);
    void publish_error(const std::string& why);
    // In the forking process, after the fork: gives up its writing end.
    void forked();
    // Blocks until the measuring process has ended; its value, or none if it failed,
    // crashed or never started (then error() says why).
    std::optional<std::uint64_t> wait();
    [[nodiscard]] std::string error() const;

private:
    struct Page {
        std::atomic<int> state;  // 0: nothing yet, 1: value, 2: failed
        std::uint64_t value;
        char error[2048];        // why it failed (state 2), truncated, NUL-terminated
    };
    Page* page_ = nullptr;
    int read_fd_ = -1;
    int write_fd_ = -1;
};

}  // namespace memsim
