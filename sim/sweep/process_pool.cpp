#include "sim/sweep/process_pool.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <thread>

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
pid_t spawn(const ProcessJob& job) {
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, job.log_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
    std::vector<char*> argv;
    for (const std::string& a : job.argv) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    pid_t pid = -1;
    const int error = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (error != 0) {
        std::ofstream(job.log_path) << "memsim: error: cannot start " << job.argv[0] << ": " << std::strerror(error) << "\n";
        return -1;
    }
    return pid;
}

int exit_code_of(int status) {
    if (WIFEXITED(status)) return WEXITSTATUS(status);
    if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
    return 1;
}

}  // namespace

void run_processes(const std::vector<ProcessJob>& jobs, int parallel,
                   const std::function<void(std::size_t, const ProcessOutcome&)>& on_finish,
                   const std::function<void()>& on_tick) {
    parallel = std::max(1, parallel);
    std::vector<Running> running;
    std::size_t next = 0;
    auto last_tick = Clock::now();
    while (next < jobs.size() || !running.empty()) {
        while (next < jobs.size() && static_cast<int>(running.size()) < parallel) {
            const pid_t pid = spawn(jobs[next]);
            if (pid < 0) on_finish(next, {127, 0.0});
            else running.push_back({next, pid, Clock::now()});
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
            const std::size_t job = it->job;
            it = running.erase(it);
            any_ended = true;
            on_finish(job, {r < 0 ? 1 : exit_code_of(status), seconds});
        }
        if (Clock::now() - last_tick > std::chrono::milliseconds(250)) {
            on_tick();
            last_tick = Clock::now();
        }
        if (!any_ended && !running.empty()) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
}

}  // namespace memsim
