#include "models/recompute/optimal/solver_process.h"

#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <string>

#include <fmt/format.h>

#include "models/io/process_end.h"

namespace memsim::optimal {

namespace {

// The outcome on the wire: a fixed header, then the solution's values.
struct Header {
    std::int32_t status;
    std::int32_t hit_time_limit;
    std::int64_t nodes;
    double objective, bound, seconds;
    std::uint64_t solution_size;
};

std::string encode(const MilpOutcome& out) {
    const Header h{static_cast<std::int32_t>(out.status), out.hit_time_limit ? 1 : 0, out.nodes, out.objective,
                   out.bound, out.seconds, out.solution.size()};
    std::string bytes(reinterpret_cast<const char*>(&h), sizeof h);
    if (!out.solution.empty())
        bytes.append(reinterpret_cast<const char*>(out.solution.data()), out.solution.size() * sizeof(double));
    return bytes;
}

bool decode(const std::string& bytes, MilpOutcome& out) {
    Header h{};
    if (bytes.size() < sizeof h) return false;
    std::memcpy(&h, bytes.data(), sizeof h);
    if (h.status < 0 || h.status > static_cast<std::int32_t>(MilpStatus::Failed)) return false;
    if (bytes.size() != sizeof h + h.solution_size * sizeof(double)) return false;
    out.status = static_cast<MilpStatus>(h.status);
    out.hit_time_limit = h.hit_time_limit != 0;
    out.nodes = static_cast<long>(h.nodes);
    out.objective = h.objective;
    out.bound = h.bound;
    out.seconds = h.seconds;
    out.solution.resize(h.solution_size);
    if (h.solution_size > 0)  // memcpy's pointers must not be null, even for no bytes
        std::memcpy(out.solution.data(), bytes.data() + sizeof h, h.solution_size * sizeof(double));
    return true;
}

bool write_all(int fd, const std::string& bytes) {
    for (std::size_t done = 0; done < bytes.size();) {
        const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        done += static_cast<std::size_t>(n);
    }
    return true;
}

MilpOutcome failed(std::string why) {
    MilpOutcome out;
    out.status = MilpStatus::Failed;
    out.failure = std::move(why);
    return out;
}

// Arms a one-shot timer on this process's CPU clock that sends SIGXCPU (default action:
// the process ends) once `seconds` of CPU are used. Without a timer (none left to make)
// the solver's own limit still applies.
void arm_cpu_deadline(double seconds) {
    sigevent event{};
    event.sigev_notify = SIGEV_SIGNAL;
    event.sigev_signo = SIGXCPU;
    timer_t timer{};
    if (::timer_create(CLOCK_PROCESS_CPUTIME_ID, &event, &timer) != 0) return;
    itimerspec when{};
    const double whole = std::floor(seconds);
    when.it_value.tv_sec = static_cast<time_t>(whole);
    when.it_value.tv_nsec = static_cast<long>((seconds - whole) * 1e9);
    if (when.it_value.tv_sec == 0 && when.it_value.tv_nsec == 0) when.it_value.tv_nsec = 1;
    ::timer_settime(timer, 0, &when, nullptr);
}

}  // namespace

MilpOutcome solve_in_child(const std::function<MilpOutcome()>& solve, double cpu_deadline_s) {
    int pipe_fd[2];
    if (::pipe(pipe_fd) != 0) return failed(fmt::format("cannot start the solver's process: {}", std::strerror(errno)));
    // Nothing buffered may be written twice, by the child and again by this process.
    std::cout.flush();
    std::cerr.flush();
    std::fflush(nullptr);
    const pid_t parent = ::getpid();
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (::getppid() != parent) _exit(2);  // the parent died before prctl
        // A crash in the solver ends this process by its signal, which the parent reports;
        // the handlers inherited from the parent (a test framework's crash report, Python's
        // faulthandler in the module) would describe the parent's state, not the solver's.
        for (const int signum : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGXCPU}) std::signal(signum, SIG_DFL);
        // A solver that dies leaves no core file in the user's folder.
        const rlimit no_core{0, 0};
        ::setrlimit(RLIMIT_CORE, &no_core);
        if (cpu_deadline_s > 0) arm_cpu_deadline(cpu_deadline_s);
        ::close(pipe_fd[0]);
        int code = 1;
        try {
            code = write_all(pipe_fd[1], encode(solve())) ? 0 : 1;
        } catch (...) {
        }
        _exit(code);
    }
    if (pid < 0) {
        const int error = errno;
        ::close(pipe_fd[0]);
        ::close(pipe_fd[1]);
        return failed(fmt::format("cannot start the solver's process: {}", std::strerror(error)));
    }
    ::close(pipe_fd[1]);
    std::string bytes;
    char buffer[65536];
    for (;;) {
        const ssize_t n = ::read(pipe_fd[0], buffer, sizeof buffer);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        bytes.append(buffer, static_cast<std::size_t>(n));
    }
    ::close(pipe_fd[0]);
    int status = 0;
    struct rusage usage {};
    while (::wait4(pid, &status, 0, &usage) < 0 && errno == EINTR) {
    }
    MilpOutcome out;
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && decode(bytes, out)) return out;
    out = failed(fmt::format("the solver's process ended without an answer: {}", process_end(status)));
    if (WIFSIGNALED(status)) out.killed_by = WTERMSIG(status);
    out.hit_deadline = cpu_deadline_s > 0 && out.killed_by == SIGXCPU;
    out.seconds = static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
                  1e-6 * static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec);
    return out;
}

}  // namespace memsim::optimal
