// The forked measuring runs (sim/engine/side_run.h): a value crosses the pipe bit for
// bit, a failed child is "none" (the caller then runs it itself), and a child this
// process no longer waits for is killed and reaped, not left running or as a zombie.
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cerrno>
#include <csignal>
#include <stdexcept>

#include "sim/engine/side_run.h"

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
