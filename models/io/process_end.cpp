#include "models/io/process_end.h"

#include <sys/wait.h>

#include <cstring>

#include <fmt/format.h>

namespace memsim {

std::string signal_name(int signum) {
    const char* abbrev = sigabbrev_np(signum);
    return abbrev ? std::string("SIG") + abbrev : "signal " + std::to_string(signum);
}

std::string signal_words(int signum) {
    return sigabbrev_np(signum) ? fmt::format("signal {} ({})", signum, signal_name(signum)) : signal_name(signum);
}

std::string process_end(int wait_status) {
    if (WIFSIGNALED(wait_status)) return "killed by " + signal_words(WTERMSIG(wait_status));
    if (WIFEXITED(wait_status)) return fmt::format("exit code {}", WEXITSTATUS(wait_status));
    return "an unknown end";
}

}  // namespace memsim
