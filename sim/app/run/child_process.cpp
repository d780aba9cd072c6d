#include "sim/app/run/child_process.h"

#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <iostream>
#include <new>

namespace memsim {

namespace {

[[noreturn]] void cannot_fork(const std::string& what, int error) {
    throw std::runtime_error("cannot start a process to measure " + what + ": " + std::strerror(error));
}

volatile std::sig_atomic_t g_received = 0;

extern "C" void remember_signal(int signum) { g_received = signum; }

}  // namespace

SignalsNoted::SignalsNoted() {
    g_received = 0;
    struct sigaction noted {};
    noted.sa_handler = remember_signal;
    sigemptyset(&noted.sa_mask);
    for (std::size_t i = 0; i < kStopSignals.size(); ++i) sigaction(kStopSignals[i], &noted, &old_[i]);
}

SignalsNoted::~SignalsNoted() {
    for (std::size_t i = 0; i < kStopSignals.size(); ++i) sigaction(kStopSignals[i], &old_[i], nullptr);
}

int SignalsNoted::received() { return g_received; }

void die_with_parent(pid_t parent) {
    // The parent may have died before the prctl: then this process was already adopted.
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent) _exit(1);
}

pid_t fork_child(const std::function<int()>& body) {
    std::cout.flush();
    std::cerr.flush();
    std::fflush(nullptr);
    const pid_t parent = getpid();
    const pid_t pid = fork();
    if (pid != 0) return pid;  // the parent, or -1
    die_with_parent(parent);
    for (const int signum : kStopSignals) std::signal(signum, SIG_DFL);
    int code = 1;
    try {
        code = body();
    } catch (...) {
    }
    std::cout.flush();
    std::cerr.flush();
    std::fflush(nullptr);
    _exit(code);
}

ChildMeasurement::ChildMeasurement(const std::function<std::uint64_t()>& measure, const std::string& what) {
    int pipe_fd[2];
    if (pipe(pipe_fd) != 0) cannot_fork(what, errno);
    const pid_t pid = fork_child([&] {
        close(pipe_fd[0]);
        // 'v' and the value, or 'e' and the error's message.
        std::string out;
        int code = 1;
        try {
            const std::uint64_t value = measure();
            out.assign(1, 'v');
            out.append(reinterpret_cast<const char*>(&value), sizeof value);
            code = 0;
        } catch (const std::exception& e) {
            out = std::string("e") + e.what();
        } catch (...) {
            out = "eunknown exception";
        }
        for (std::size_t done = 0; done < out.size();) {
            const ssize_t n = write(pipe_fd[1], out.data() + done, out.size() - done);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) return 1;
            done += static_cast<std::size_t>(n);
        }
        return code;
    });
    if (pid < 0) {
        const int error = errno;
        close(pipe_fd[0]);
        close(pipe_fd[1]);
        cannot_fork(what, error);
    }
    close(pipe_fd[1]);
    pid_ = pid;
    read_fd_ = pipe_fd[0];
}

std::optional<std::uint64_t> ChildMeasurement::result() {
    if (pid_ < 0) return std::nullopt;
    std::string in;
    char buffer[4096];
    for (;;) {
        const ssize_t n = read(read_fd_, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        in.append(buffer, static_cast<std::size_t>(n));
    }
    close(read_fd_);
    int status = 0;
    while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
    pid_ = read_fd_ = -1;
    const bool exited_ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    if (exited_ok && in.size() == 1 + sizeof(std::uint64_t) && in[0] == 'v') {
        std::uint64_t value = 0;
        std::memcpy(&value, in.data() + 1, sizeof value);
        return value;
    }
    if (!in.empty() && in[0] == 'e') error_ = in.substr(1);
    else if (WIFSIGNALED(status)) error_ = std::string("its process was killed by signal ") + strsignal(WTERMSIG(status));
    else error_ = "its process ended without a result";
    return std::nullopt;
}

ChildMeasurement::~ChildMeasurement() {
    if (pid_ < 0) return;
    kill(pid_, SIGKILL);
    close(read_fd_);
    while (waitpid(pid_, nullptr, 0) < 0 && errno == EINTR) {
    }
}

SharedMeasurement::SharedMeasurement(const std::string& what) {
    void* page = mmap(nullptr, sizeof(Page), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (page == MAP_FAILED) cannot_fork(what, errno);
    int pipe_fd[2];
    if (pipe(pipe_fd) != 0) {
        const int error = errno;
        munmap(page, sizeof(Page));
        cannot_fork(what, error);
    }
    page_ = new (page) Page{{0}, 0, {}};
    read_fd_ = pipe_fd[0];
    write_fd_ = pipe_fd[1];
}

SharedMeasurement::~SharedMeasurement() {
    if (read_fd_ >= 0) close(read_fd_);
    if (write_fd_ >= 0) close(write_fd_);
    munmap(page_, sizeof(Page));
}

void SharedMeasurement::publish(std::uint64_t value) {
    page_->value = value;
    page_->state.store(1, std::memory_order_release);
}

void SharedMeasurement::publish_error(const std::string& why) {
    const std::size_t n = std::min(why.size(), sizeof page_->error - 1);
    std::memcpy(page_->error, why.data(), n);
    page_->error[n] = '\0';
    page_->state.store(2, std::memory_order_release);
}

void SharedMeasurement::forked() {
    if (write_fd_ >= 0) close(write_fd_);
    write_fd_ = -1;
}

std::optional<std::uint64_t> SharedMeasurement::wait() {
    // A process that still holds the writing end would wait for itself.
    if (write_fd_ >= 0) throw std::logic_error("SharedMeasurement::wait before forked()");
    char byte = 0;
    while (read(read_fd_, &byte, 1) < 0 && errno == EINTR) {
    }
    if (page_->state.load(std::memory_order_acquire) != 1) return std::nullopt;
    return page_->value;
}

std::string SharedMeasurement::error() const {
    switch (page_->state.load(std::memory_order_acquire)) {
        case 1: return "";
        case 2: return page_->error;
        default: return "its process ended without a result";
    }
}

}  // namespace memsim
