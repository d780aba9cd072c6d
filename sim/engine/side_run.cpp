#include "sim/engine/side_run.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <iostream>

namespace memsim {

namespace {

[[noreturn]] void cannot_fork(const std::string& what, int error) {
    throw std::runtime_error("cannot start a process to measure " + what + ": " + std::strerror(error));
}

}  // namespace

ChildMeasurement::ChildMeasurement(const std::function<std::uint64_t()>& measure, const std::string& what) {
    int pipe_fd[2];
    if (pipe(pipe_fd) != 0) cannot_fork(what, errno);
    std::cout.flush();
    std::cerr.flush();
    std::fflush(nullptr);  // nothing buffered may be written twice
    const pid_t pid = fork();
    if (pid < 0) {
        const int error = errno;
        close(pipe_fd[0]);
        close(pipe_fd[1]);
        cannot_fork(what, error);
    }
    if (pid == 0) {
        close(pipe_fd[0]);
        int code = 1;
        try {
            const std::uint64_t value = measure();
            if (write(pipe_fd[1], &value, sizeof value) == static_cast<ssize_t>(sizeof value)) code = 0;
        } catch (...) {  // the parent runs it again and reports the error
        }
        _exit(code);  // no static destructors, no return into the parent's code
    }
    close(pipe_fd[1]);
    pid_ = pid;
    read_fd_ = pipe_fd[0];
}

std::optional<std::uint64_t> ChildMeasurement::result() {
    if (pid_ < 0) return std::nullopt;
    std::uint64_t value = 0;
    ssize_t got = 0;
    do got = read(read_fd_, &value, sizeof value);
    while (got < 0 && errno == EINTR);
    close(read_fd_);
    int status = 0;
    while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
    pid_ = read_fd_ = -1;
    if (got != static_cast<ssize_t>(sizeof value) || !WIFEXITED(status) || WEXITSTATUS(status) != 0) return std::nullopt;
    return value;
}

ChildMeasurement::~ChildMeasurement() {
    if (pid_ < 0) return;
    kill(pid_, SIGKILL);
    close(read_fd_);
    while (waitpid(pid_, nullptr, 0) < 0 && errno == EINTR) {
    }
}

std::optional<std::uint64_t> measure_in_child(const std::function<std::uint64_t()>& measure, const std::string& what) {
    return ChildMeasurement(measure, what).result();
}

}  // namespace memsim
