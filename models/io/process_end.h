// How a child process ended, in the words every message uses: "killed by signal 11
// (SIGSEGV)", "exit code 3". Shared by the solver's process (models/recompute/optimal/
// solver_process.h) and a sweep's points (sim/app/sweep/process_pool.h).
#pragma once

#include <string>

namespace memsim {

// From waitpid's status.
std::string process_end(int wait_status);

// "SIGSEGV" (or "signal 70" for a number without a name).
std::string signal_name(int signum);

// "signal 11 (SIGSEGV)".
std::string signal_words(int signum);

}  // namespace memsim
