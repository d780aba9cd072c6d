#include "sim/app/sweep/process_pool.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <iostream>

#include "models/io/process_end.h"
#include "sim/app/run/child_process.h"
#include "sim/report/point_results.h"

extern char** environ;

namespace memsim {

namespace {

using Clock = std::chrono::steady_clock;

struct Running {
    std::size_t job;
    pid_t pid;
    Clock::time_point started;
};

// Returns the child's pid, or -1 after writing why it could not start into its log.
pid_t spawn(const ProcessJob& job, const sigset_t& child_mask) {
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, job.log_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    posix_spawnattr_setsigmask(&attributes, &child_mask);
    posix_spawnattr_setpgroup(&attributes, 0);  // its own group, which a stop signal is passed on to
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETPGROUP);
    std::vector<char*> argv;
    for (const std::string& a : job.argv) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    // Who started it, for its die_with_parent (a SIGKILL of this process must end it too).
    std::string parent = std::string(kParentPidVariable) + "=" + std::to_string(getpid());
    std::vector<char*> env{parent.data()};
    for (char** e = environ; *e; ++e)
        if (std::string(*e).rfind(std::string(kParentPidVariable) + "=", 0) != 0) env.push_back(*e);
    env.push_back(nullptr);
    pid_t pid = -1;
    const int error = posix_spawn(&pid, argv[0], &actions, &attributes, argv.data(), env.data());
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    if (error != 0) {
        std::ofstream(job.log_path) << "memsim: error: cannot start " << job.argv[0] << ": " << std::strerror(error) << "\n";
        return -1;
    }
    return pid;
}

// Forks (sim/app/run/child_process.h); the child sends its output to the job's log and runs
// the body.
pid_t fork_job(const ProcessJob& job, const sigset_t& child_mask) {
    const pid_t pid = fork_child([&] {
        setpgid(0, 0);  // its own group (set here and in the parent: whichever runs first)
        sigprocmask(SIG_SETMASK, &child_mask, nullptr);
        const int log = open(job.log_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        const int null = open("/dev/null", O_RDONLY);
        if (log < 0 || null < 0 || dup2(null, STDIN_FILENO) < 0 || dup2(log, STDOUT_FILENO) < 0 ||
            dup2(log, STDERR_FILENO) < 0)
            return 1;
        close(log);
        close(null);
        try {
            return job.body();
        } catch (const std::exception& e) {
            std::cerr << "memsim: error: " << e.what() << "\n";
        } catch (...) {
            std::cerr << "memsim: error: unknown exception\n";
        }
        return 1;
    });
    if (pid > 0) setpgid(pid, pid);
    return pid;
}

// What is left of a job's group once the job has ended (a process it forked, adopted here
// as this process is a subreaper) is killed and reaped: every member has SIGKILL, so the
// wait is short, and a member's children come here before it can be reaped.
void end_group(pid_t group) {
    kill(-group, SIGKILL);
    while (waitpid(-group, nullptr, 0) > 0 || errno == EINTR) {
    }
}

// While alive, this process adopts the orphans of its jobs' processes (end_group).
class Subreaper {
public:
    Subreaper() {
        prctl(PR_GET_CHILD_SUBREAPER, &was_);
        prctl(PR_SET_CHILD_SUBREAPER, 1);
    }
    ~Subreaper() { prctl(PR_SET_CHILD_SUBREAPER, was_); }
    Subreaper(const Subreaper&) = delete;
    Subreaper& operator=(const Subreaper&) = delete;

private:
    int was_ = 0;
};

int exit_code_of(int status) {
    if (WIFEXITED(status)) return WEXITSTATUS(status);
    if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
    return 1;
}

// Blocks SIGCHLD while alive so the pool can sleep in sigtimedwait until a child ends
// (no polling delay per job); restores the mask after.
class ChildSignal {
public:
    ChildSignal() {
        sigemptyset(&chld_);
        sigaddset(&chld_, SIGCHLD);
        sigprocmask(SIG_BLOCK, &chld_, &saved_);
    }
    ~ChildSignal() {
        // Drop a pending SIGCHLD of the last child before unblocking.
        const timespec zero{0, 0};
        while (sigtimedwait(&chld_, nullptr, &zero) > 0) {
        }
        sigprocmask(SIG_SETMASK, &saved_, nullptr);
    }
    ChildSignal(const ChildSignal&) = delete;
    ChildSignal& operator=(const ChildSignal&) = delete;
    const sigset_t& child_mask() const { return saved_; }
    void wait(std::chrono::milliseconds timeout) const {
        const timespec ts{static_cast<time_t>(timeout.count() / 1000), static_cast<long>(timeout.count() % 1000) * 1000000L};
        sigtimedwait(&chld_, nullptr, &ts);
    }

private:
    sigset_t chld_{}, saved_{};
};

}  // namespace

int run_processes(const std::vector<ProcessJob>& jobs, int parallel,
                  const std::function<void(std::size_t, const ProcessOutcome&)>& on_finish,
                  const std::function<void()>& on_tick) {
    parallel = std::max(1, parallel);
    const SignalsNoted noted;  // before the first child: a stop signal is passed on, not lost
    const Subreaper subreaper;
    const ChildSignal signal;
    std::vector<Running> running;
    std::size_t next = 0;
    auto last_tick = Clock::now();
    constexpr auto kTick = std::chrono::milliseconds(250);
    constexpr auto kGrace = std::chrono::seconds(5);  // after a stop signal, then SIGKILL
    int stopped_by = 0;
    Clock::time_point kill_at;
    while ((next < jobs.size() && stopped_by == 0) || !running.empty()) {
        if (stopped_by == 0 && SignalsNoted::received() != 0) {
            stopped_by = SignalsNoted::received();
            for (const Running& r : running) kill(-r.pid, stopped_by);
            kill_at = Clock::now() + kGrace;
        }
        if (stopped_by != 0 && Clock::now() > kill_at) {
            for (const Running& r : running) kill(-r.pid, SIGKILL);
            kill_at = Clock::time_point::max();
        }
        while (stopped_by == 0 && next < jobs.size() && static_cast<int>(running.size()) < parallel) {
            const ProcessJob& job = jobs[next];
            if (job.prepare) job.prepare();
            const auto started = Clock::now();
            const pid_t pid = job.body ? fork_job(job, signal.child_mask()) : spawn(job, signal.child_mask());
            if (job.started) job.started();
            if (pid < 0) {
                if (job.body) std::ofstream(job.log_path) << "memsim: error: cannot fork: " << std::strerror(errno) << "\n";
                on_finish(next, {127, 0.0});
            } else {
                running.push_back({next, pid, started});
            }
            ++next;
        }
        bool any_ended = false;
        for (auto it = running.begin(); it != running.end();) {
            int status = 0;
            const pid_t r = waitpid(it->pid, &status, WNOHANG);
            if (r == 0 || (r < 0 && errno == EINTR)) {
                ++it;
                continue;
            }
            const double seconds = std::chrono::duration<double>(Clock::now() - it->started).count();
            // A process killed by a signal wrote nothing about it: its log says it here.
            if (r > 0 && WIFSIGNALED(status))
                std::ofstream(jobs[it->job].log_path, std::ios::app) << kKilledPrefix << process_end(status) << "\n";
            const std::size_t job = it->job;
            if (r > 0) end_group(it->pid);
            it = running.erase(it);
            any_ended = true;
            if (stopped_by == 0) on_finish(job, {r < 0 ? 1 : exit_code_of(status), seconds});
        }
        if (Clock::now() - last_tick > kTick) {
            on_tick();
            last_tick = Clock::now();
        }
        // Sleep until a child ends (SIGCHLD stays pending while blocked, so one that
        // ended since the waitpid above wakes us at once) or the next tick is due.
        if (!any_ended && !running.empty()) signal.wait(kTick);
    }
    return stopped_by;
}

}  // namespace memsim
