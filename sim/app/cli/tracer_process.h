// The Python tracer as a supervised child of `memsim trace` (docs/tracing.md, "Errors,
// signals and --timeout"): its own process group, a pipe on which it reports "ok" or
// "error" when it ends on purpose, SIGINT/SIGTERM/SIGHUP to memsim forwarded to it, and a
// deadline after which it is stopped.
#pragma once

#include <cstdint>

#include <signal.h>
#include <sys/types.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "sim/app/run/child_process.h"  // SignalsNoted: run_tracer passes the signals it notes on

namespace memsim::cli {

struct TracerEnd {
    pid_t pid = 0;
    bool exited = false;        // by exit(); else killed by a signal
    int status = 0;             // exit status, or the signal that killed it
    std::string report;         // what it wrote on the report pipe ("ok", "error" or nothing)
    std::uint64_t report_bytes = 0;  // all it wrote there; beyond kMaxReportBytes nothing is kept
    int forwarded_signal = 0;   // a signal memsim received and passed on (0: none)
    bool deadline_passed = false;
};

// The tracer writes "ok" or "error" on its report pipe; the model's code runs in the same
// process and can write there too: what is beyond this is read (so the writer never
// blocks) and dropped, and such a report is no report.
inline constexpr std::uint64_t kMaxReportBytes = 4096;

// The fd number the child finds its report pipe on (passed as --report-fd).
inline constexpr int kReportFd = 3;

// Starts argv[0] (looked up in PATH) in a process group of its own with the report pipe
// on kReportFd and waits for it and its group. A signal noted by a live SignalsNoted (also
// one noted before the start) is sent to the group, and SIGKILL follows after `grace_s`;
// so does SIGTERM once `deadline_s` (<= 0: none) has passed. Throws TracerNotStarted when
// argv[0] cannot be started (no such interpreter), std::runtime_error for other failures.
struct TracerNotStarted : std::runtime_error {
    using std::runtime_error::runtime_error;
};
TracerEnd run_tracer(const std::vector<std::string>& argv, double deadline_s, double grace_s);

}  // namespace memsim::cli
