#include "sim/app/cli/tracer_process.h"

#include <fcntl.h>
#include <dirent.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <optional>
#include <stdexcept>

#include <fmt/format.h>

extern char** environ;

namespace memsim::cli {

namespace {

// Keeps the first kMaxReportBytes of the report, counts the rest.
void keep_report(TracerEnd& end, const char* data, ssize_t n) {
    const auto bytes = static_cast<std::uint64_t>(n);
    if (end.report_bytes < kMaxReportBytes)
        end.report.append(data, static_cast<std::size_t>(std::min(bytes, kMaxReportBytes - end.report_bytes)));
    end.report_bytes += bytes;
}

// The processes whose parent is this one (from /proc: a subreaper's adopted orphans are
// not in any group it knows); none when /proc cannot be read.
std::optional<std::vector<pid_t>> children_of_this_process() {
    std::vector<pid_t> children;
    const pid_t self = getpid();
    DIR* proc = opendir("/proc");
    if (!proc) return std::nullopt;
    while (const dirent* entry = readdir(proc)) {
        char* end = nullptr;
        const long pid = std::strtol(entry->d_name, &end, 10);
        if (pid <= 0 || *end != '\0') continue;
        std::ifstream stat_file(fmt::format("/proc/{}/stat", pid));
        std::string stat((std::istreambuf_iterator<char>(stat_file)), std::istreambuf_iterator<char>());
        const std::size_t name_end = stat.rfind(')');  // "PID (NAME) STATE PPID ...": NAME may hold anything
        char state = 0;
        long ppid = 0;
        if (name_end != std::string::npos && std::sscanf(stat.c_str() + name_end + 1, " %c %ld", &state, &ppid) == 2 &&
            ppid == self)
            children.push_back(static_cast<pid_t>(pid));
    }
    closedir(proc);
    return children;
}

// As a subreaper, this process adopts every orphan the tracer leaves, also one the model
// started in a session of its own (setsid), out of reach of the group kill: each is
// killed and reaped, and so are its own children, adopted in turn when it dies.
void end_adopted_children() {
    for (;;) {
        const std::optional<std::vector<pid_t>> children = children_of_this_process();
        if (!children) return;
        for (const pid_t child : *children) kill(child, SIGKILL);
        // Blocking only for a child just killed; one adopted after the look is found next time.
        const pid_t reaped = waitpid(-1, nullptr, children->empty() ? WNOHANG : 0);
        if (reaped < 0 && errno == ECHILD) return;
        if (reaped < 0 && errno != EINTR) return;
        if (reaped == 0) usleep(10000);  // a child adopted since the look
    }
}

double seconds_now() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// Spawn settings: the report pipe's write end on kReportFd, a new process group, the
// default action and an empty mask for every signal memsim notes.
class SpawnSettings {
public:
    explicit SpawnSettings(int report_write_end) {
        posix_spawn_file_actions_init(&actions_);
        posix_spawn_file_actions_adddup2(&actions_, report_write_end, kReportFd);
        posix_spawnattr_init(&attr_);
        sigset_t defaults;
        sigemptyset(&defaults);
        for (int s : kStopSignals) sigaddset(&defaults, s);
        sigset_t empty;
        sigemptyset(&empty);
        posix_spawnattr_setsigdefault(&attr_, &defaults);
        posix_spawnattr_setsigmask(&attr_, &empty);
        posix_spawnattr_setpgroup(&attr_, 0);
        posix_spawnattr_setflags(&attr_, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
    }
    ~SpawnSettings() {
        posix_spawn_file_actions_destroy(&actions_);
        posix_spawnattr_destroy(&attr_);
    }
    SpawnSettings(const SpawnSettings&) = delete;
    SpawnSettings& operator=(const SpawnSettings&) = delete;
    const posix_spawn_file_actions_t* actions() const { return &actions_; }
    const posix_spawnattr_t* attr() const { return &attr_; }

private:
    posix_spawn_file_actions_t actions_{};
    posix_spawnattr_t attr_{};
};

}  // namespace

TracerEnd run_tracer(const std::vector<std::string>& argv, double deadline_s, double grace_s) {
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) throw std::runtime_error(fmt::format("cannot create a pipe: {}", std::strerror(errno)));
    // Above kReportFd, so that dup2 onto kReportFd makes a copy without close-on-exec.
    const int write_end = fcntl(fds[1], F_DUPFD_CLOEXEC, kReportFd + 1);
    close(fds[1]);
    const int read_end = fds[0];
    if (write_end < 0) {
        close(read_end);
        throw std::runtime_error(fmt::format("cannot create a pipe: {}", std::strerror(errno)));
    }
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);

    // Orphans of the tracer's processes come to this one (end_adopted_children).
    prctl(PR_SET_CHILD_SUBREAPER, 1);
    pid_t pid = 0;
    int started = 0;
    {
        SpawnSettings settings(write_end);
        started = posix_spawnp(&pid, args[0], settings.actions(), settings.attr(), args.data(), environ);
    }
    close(write_end);
    if (started != 0) {
        close(read_end);
        throw TracerNotStarted(fmt::format("cannot start {}: {}", argv[0], std::strerror(started)));
    }

    TracerEnd end;
    end.pid = pid;
    const double start = seconds_now();
    double kill_at = -1;  // when SIGKILL follows a signal or the deadline
    bool pipe_open = true;
    int status = 0;
    char buffer[256];
    for (;;) {
        const double now = seconds_now();
        if (SignalsNoted::received() != 0 && end.forwarded_signal == 0) {
            end.forwarded_signal = SignalsNoted::received();
            kill(-pid, end.forwarded_signal);
            kill_at = now + grace_s;
        }
        if (deadline_s > 0 && !end.deadline_passed && now - start > deadline_s) {
            end.deadline_passed = true;
            kill(-pid, SIGTERM);
            kill_at = now + grace_s;
        }
        if (kill_at >= 0 && now > kill_at) {
            kill(-pid, SIGKILL);
            kill_at = -1;
        }
        if (pipe_open) {
            pollfd readable{read_end, POLLIN, 0};
            if (poll(&readable, 1, 100) > 0) {
                const ssize_t n = read(read_end, buffer, sizeof buffer);
                if (n > 0) keep_report(end, buffer, n);
                else if (n == 0) pipe_open = false;
            }
        } else {
            usleep(100000);
        }
        const pid_t reaped = waitpid(pid, &status, WNOHANG);
        if (reaped == pid) break;
        if (reaped < 0 && errno != EINTR) throw std::runtime_error(fmt::format("waitpid: {}", std::strerror(errno)));
    }
    fcntl(read_end, F_SETFL, O_NONBLOCK);
    for (ssize_t n; (n = read(read_end, buffer, sizeof buffer)) > 0;) keep_report(end, buffer, n);
    close(read_end);
    kill(-pid, SIGKILL);  // whatever is left of its group (its measurement process, say)
    end_adopted_children();
    end.exited = WIFEXITED(status);
    end.status = end.exited ? WEXITSTATUS(status) : WTERMSIG(status);
    while (!end.report.empty() && (end.report.back() == '\n' || end.report.back() == ' ')) end.report.pop_back();
    if (end.report_bytes > kMaxReportBytes) end.report.clear();
    return end;
}

}  // namespace memsim::cli
