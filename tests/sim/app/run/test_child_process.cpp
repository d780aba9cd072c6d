// The forked measuring runs (sim/app/run/child_process.h): a value crosses the pipe bit for
// bit, a failed child is "none" with its reason, and a child this process no longer
// waits for is killed and reaped, not left running or as a zombie. A shared measurement
// reaches every process forked after it, and its failure or crash wakes them all with
// nothing and the reason.
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cerrno>
#include <csignal>
#include <stdexcept>
#include <vector>

#include "sim/app/run/child_process.h"

using namespace memsim;

TEST_CASE("side run: the child's value, its failure, and a child never collected") {
    CHECK(ChildMeasurement([] { return std::uint64_t{0xFFFFFFFFFFFFFFFFull}; }, "t").result() == 0xFFFFFFFFFFFFFFFFull);
    CHECK_FALSE(ChildMeasurement([]() -> std::uint64_t { throw std::runtime_error("no"); }, "t").result().has_value());
    // Why a child gave nothing reaches the parent: its exception's message, or its signal.
    ChildMeasurement throwing([]() -> std::uint64_t { throw std::runtime_error("tensor 7: bad size"); }, "t");
    CHECK_FALSE(throwing.result().has_value());
    CHECK(throwing.error() == "tensor 7: bad size");
    ChildMeasurement killed(
        []() -> std::uint64_t {
            raise(SIGKILL);
            return 1;
        },
        "t");
    CHECK_FALSE(killed.result().has_value());
    CHECK_THAT(killed.error(), Catch::Contains("killed by signal"));

    // The parent works while the child runs: here it collects after its own work.
    ChildMeasurement running([] { return std::uint64_t{42}; }, "t");
    CHECK(running.result() == 42u);
    CHECK_FALSE(running.result().has_value());  // once only

    {
        ChildMeasurement abandoned(
            []() -> std::uint64_t {
                for (;;) pause();  // would run forever
            },
            "t");
    }  // killed and reaped here: no child of this process is left
    CHECK(waitpid(-1, nullptr, WNOHANG) == -1);
    CHECK(errno == ECHILD);
}

TEST_CASE("fork child: the body's return value is the exit code, an exception exit code 1") {
    int status = 0;
    const pid_t seven = fork_child([] { return 7; });
    REQUIRE(seven > 0);
    REQUIRE(waitpid(seven, &status, 0) == seven);
    CHECK((WIFEXITED(status) && WEXITSTATUS(status) == 7));
    const pid_t throwing = fork_child([]() -> int { throw std::runtime_error("no"); });
    REQUIRE(throwing > 0);
    REQUIRE(waitpid(throwing, &status, 0) == throwing);
    CHECK((WIFEXITED(status) && WEXITSTATUS(status) == 1));
}

namespace {

// Forks a process that runs `body` and ends with its return value as exit code.
template <class Body>
pid_t fork_running(Body body) {
    const pid_t pid = fork();
    if (pid == 0) _exit(body());
    return pid;
}

int exit_code(pid_t pid) {
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

}  // namespace

TEST_CASE("shared measurement: every process forked after the measuring one gets its value, or none if it failed") {
    SharedMeasurement shared("t");
    const pid_t measuring = fork_running([&] {
        usleep(20000);  // the waiters below are forked and waiting before the value exists
        shared.publish(0xFFFFFFFFFFFFFFFEull);
        return 0;
    });
    shared.forked();
    std::vector<pid_t> waiters;
    for (int i = 0; i < 3; ++i)
        waiters.push_back(fork_running([&] { return shared.wait() == 0xFFFFFFFFFFFFFFFEull ? 0 : 1; }));
    for (const pid_t waiter : waiters) CHECK(exit_code(waiter) == 0);
    CHECK(exit_code(measuring) == 0);
    CHECK(shared.wait() == 0xFFFFFFFFFFFFFFFEull);  // the forking process too, and again

    SharedMeasurement failed("t");
    const pid_t failing = fork_running([&] {
        failed.publish_error("op 3: tensor 7 used after it was freed");
        return 0;
    });
    failed.forked();
    CHECK_FALSE(failed.wait().has_value());
    CHECK(failed.error() == "op 3: tensor 7 used after it was freed");
    CHECK(exit_code(failing) == 0);

    // Killed before publishing: its end still wakes the waiters, with nothing.
    SharedMeasurement killed("t");
    const pid_t dying = fork_running([] {
        raise(SIGKILL);
        return 0;
    });
    killed.forked();
    CHECK_FALSE(killed.wait().has_value());
    CHECK(killed.error() == "its process ended without a result");
    CHECK(exit_code(dying) == 128 + SIGKILL);

    // Never started (the fork failed): nothing to wait for.
    SharedMeasurement never("t");
    never.forked();
    CHECK_FALSE(never.wait().has_value());

    // Waiting while this process still holds the writing end would never return.
    SharedMeasurement early("t");
    CHECK_THROWS_AS(early.wait(), std::logic_error);
}
