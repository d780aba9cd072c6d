// Issue 41, class 5: a stopped memsim leaves no process of its own behind. This test
// process is a subreaper (PR_SET_CHILD_SUBREAPER), so every orphan of the memsim it
// starts comes to it: once memsim is reaped, waitpid(-1) says whether anything is left.
// (The tracer's case is in tools/trace/tests/test_memsim_replay.py.)
#include <catch2/catch.hpp>

#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "hostile_support.h"
#include "sim/app/run/run_pipeline.h"
#include "sim/app/run/workload_factory.h"
#include "sim/report/output_folder.h"
#include "sim/scenario/scenario.h"

using namespace memsim;
using namespace memsim::test;
namespace fs = std::filesystem;

namespace {

// Starts memsim ARGS with its output into DIR/stdout and DIR/stderr.
pid_t start_memsim(const std::vector<std::string>& args, const fs::path& dir) {
    std::fflush(nullptr);  // else the child writes this process's buffered output again
    const pid_t pid = ::fork();
    if (pid == 0) {
        std::freopen((dir / "stdout").c_str(), "w", stdout);
        std::freopen((dir / "stderr").c_str(), "w", stderr);
        std::vector<char*> argv{const_cast<char*>(MEMSIM_BINARY)};
        for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
        argv.push_back(nullptr);
        ::execv(MEMSIM_BINARY, argv.data());
        ::_exit(127);
    }
    return pid;
}

// The processes whose parent is `parent` (from /proc).
std::vector<pid_t> children_of(pid_t parent) {
    std::vector<pid_t> found;
    for (const auto& e : fs::directory_iterator("/proc")) {
        const std::string name = e.path().filename().string();
        if (name.find_first_not_of("0123456789") != std::string::npos) continue;
        // Read with stdio: a process that ends between the open and the read fails the read
        // with ESRCH, which std::filebuf reports by throwing (seen under ctest -j2).
        std::string stat(512, '\0');
        std::FILE* f = std::fopen((e.path() / "stat").c_str(), "r");
        stat.resize(f ? std::fread(stat.data(), 1, stat.size(), f) : 0);
        if (f) std::fclose(f);
        const std::size_t end = stat.rfind(')');
        char state = 0;
        long ppid = 0;
        if (end != std::string::npos && std::sscanf(stat.c_str() + end + 1, " %c %ld", &state, &ppid) == 2 && ppid == parent)
            found.push_back(std::stoi(name));
    }
    return found;
}

// Every file under `dir` with its size, and when it was last written.
std::map<std::string, std::pair<std::uintmax_t, fs::file_time_type>> files(const fs::path& dir) {
    std::map<std::string, std::pair<std::uintmax_t, fs::file_time_type>> found;
    for (const auto& e : fs::recursive_directory_iterator(dir))
        if (e.is_regular_file()) found[e.path().string()] = {e.file_size(), e.last_write_time()};
    return found;
}

// Whether `pid`, a child, has ended (it is left to be reaped).
bool ended(pid_t pid) {
    siginfo_t info{};
    return ::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == pid;
}

// Nothing this process started is left: no child, no adopted orphan.
bool nothing_left() {
    int status = 0;
    return ::waitpid(-1, &status, WNOHANG) == -1 && errno == ECHILD;
}

}  // namespace

TEST_CASE("hostile signals: SIGTERM or SIGINT or SIGHUP to a sweep stops its points and none is left and the folder stays marked (issue 41 example)") {
    REQUIRE(::prctl(PR_SET_CHILD_SUBREAPER, 1) == 0);
    for (const int signum : {SIGTERM, SIGINT, SIGHUP}) {
        const std::string name = sigabbrev_np(signum);
        INFO("SIG" << name);
        const fs::path dir = fresh_dir("sweep_signal_" + name);
        const fs::path out = dir / "sweep";
        // Points of a second or more, two at a time, each with its measuring child.
        const std::string scenario =
            write_text(dir / "s.yaml", "name: s\nworkload: {synthetic: uniform_linear, n: 100000}\n"
                                       "platform: {memory: {budget_ratio: 0.9}}\npolicy: {swap: {mode: sync}}\n"
                                       "sweep: {platform.gpu.speed_scale: [1, 2, 3, 4, 5, 6, 7, 8]}\n");
        const pid_t sweep = start_memsim({"sweep", scenario, "-j", "2", "--out", out.string()}, dir);
        // Until a point runs: its own folder is marked by its run.
        REQUIRE(wait_until([&] { return ended(sweep) || fs::exists(out / "points/0001" / kIncompleteMark); }));
        REQUIRE_FALSE(ended(sweep));
        REQUIRE(::kill(sweep, signum) == 0);
        int status = 0;
        REQUIRE(::waitpid(sweep, &status, 0) == sweep);
        CHECK(WIFSIGNALED(status));
        CHECK(WTERMSIG(status) == signum);  // the caller's shell sees 128 + signal
        CHECK(nothing_left());
        CHECK(fs::exists(out / kIncompleteMark));
        CHECK_FALSE(fs::exists(out / "results.csv"));
        CHECK_THAT(read_file(dir / "stderr"),
                   Catch::Contains("memsim: interrupted by SIG" + name + "; the running points were stopped, and " +
                                   out.string() + " is marked INCOMPLETE (run the sweep again)"));
        // No process is left to write; the folder is the same a moment later.
        const auto before = files(out);
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        CHECK(files(out) == before);
    }
}

TEST_CASE("hostile signals: a sweep killed with SIGKILL takes its points with it (forked or started as processes)") {
    REQUIRE(::prctl(PR_SET_CHILD_SUBREAPER, 1) == 0);
    for (const bool process_per_point : {false, true}) {
        INFO("--process-per-point " << process_per_point);
        const fs::path dir = fresh_dir(process_per_point ? "sweep_sigkill_processes" : "sweep_sigkill_forks");
        const fs::path out = dir / "sweep";
        const std::string scenario =
            write_text(dir / "s.yaml", "name: s\nworkload: {synthetic: uniform_linear, n: 100000}\n"
                                       "platform: {memory: {budget_ratio: 0.9}}\npolicy: {swap: {mode: sync}}\n"
                                       "sweep: {platform.gpu.speed_scale: [1, 2, 3, 4]}\n");
        std::vector<std::string> args{"sweep", scenario, "-j", "2", "--out", out.string()};
        if (process_per_point) args.emplace_back("--process-per-point");
        const pid_t sweep = start_memsim(args, dir);
        REQUIRE(wait_until([&] { return ended(sweep) || fs::exists(out / "points/0001" / kIncompleteMark); }));
        REQUIRE_FALSE(ended(sweep));
        const std::vector<pid_t> points = children_of(sweep);
        REQUIRE_FALSE(points.empty());
        REQUIRE(::kill(sweep, SIGKILL) == 0);
        int status = 0;
        REQUIRE(::waitpid(sweep, &status, 0) == sweep);
        // Its points came here when it died, each killed with it (PR_SET_PDEATHSIG), and
        // their measuring children with them; none ran on to its end. A process started as
        // the sweep died (a point spawned, or a point's measuring child forked, after the
        // list above was read) finds at its start that its parent is gone and ends with
        // exit 1 (die_with_parent, sim/app/run/child_process.cpp): seen once in a loaded run.
        int killed = 0;
        for (pid_t child; (child = ::waitpid(-1, &status, 0)) > 0;) {
            const bool listed = std::find(points.begin(), points.end(), child) != points.end();
            INFO("child " << child << (listed ? " (a point listed)" : " (not listed)") << ", wait status " << status);
            const bool ended_at_start = !listed && WIFEXITED(status) && WEXITSTATUS(status) == 1;
            if (!ended_at_start) {
                CHECK(WIFSIGNALED(status));
                CHECK(WTERMSIG(status) == SIGKILL);
            }
            killed += listed;
        }
        CHECK(killed == static_cast<int>(points.size()));
        CHECK(nothing_left());
    }
}

TEST_CASE("hostile signals: a killed memsim run leaves no measuring child running (issue 41 example)") {
    REQUIRE(::prctl(PR_SET_CHILD_SUBREAPER, 1) == 0);
    for (const int signum : {SIGTERM, SIGKILL}) {
        const std::string name = sigabbrev_np(signum);
        INFO("SIG" << name);
        const fs::path dir = fresh_dir("run_signal_" + name);
        // The no-policy time is measured in a child forked before the run simulates.
        const std::string scenario =
            write_text(dir / "s.yaml", "name: s\nworkload: {synthetic: uniform_linear, n: 100000}\n"
                                       "platform: {memory: {budget_ratio: 0.9}}\npolicy: {swap: {mode: sync}}\n");
        const pid_t run = start_memsim({"run", scenario, "-q", "--out", (dir / "out").string()}, dir);
        REQUIRE(wait_until([&] { return ended(run) || !children_of(run).empty(); }));
        INFO(read_file(dir / "stderr"));
        REQUIRE_FALSE(ended(run));
        const std::vector<pid_t> measuring = children_of(run);
        REQUIRE(::kill(run, signum) == 0);
        int status = 0;
        REQUIRE(::waitpid(run, &status, 0) == run);
        CHECK(WIFSIGNALED(status));
        CHECK(WTERMSIG(status) == signum);
        // Its child came here when it died: killed with it (PR_SET_PDEATHSIG), not left to
        // finish its simulation.
        for (pid_t child; (child = ::waitpid(-1, &status, 0)) > 0;) {
            INFO("child " << child);
            CHECK(std::find(measuring.begin(), measuring.end(), child) != measuring.end());
            CHECK(WIFSIGNALED(status));
            CHECK(WTERMSIG(status) == SIGKILL);
        }
        CHECK(nothing_left());
        CHECK(fs::exists(dir / "out" / kIncompleteMark));
        CHECK_FALSE(fs::exists(dir / "out/summary.json"));
    }
}

TEST_CASE("hostile signals: the simulation keeps memsim's SIGINT action, not SimGrid's silent exit(1)") {
    // What memsim had before its first simulation (here: a marker handler) is what it has after.
    struct sigaction mine {};
    mine.sa_handler = [](int) {};
    sigemptyset(&mine.sa_mask);
    sigaction(SIGINT, &mine, nullptr);
    const memsim::Scenario s =
        memsim::parse_scenario("workload: {synthetic: chain, n: 4}\npolicy: {allocator: os}\n", "test");
    const memsim::RunResult r = memsim::run_simulation(s, memsim::load_workload(s));
    REQUIRE(r.summary.status == "ok");
    struct sigaction now {};
    sigaction(SIGINT, nullptr, &now);
    CHECK(now.sa_handler == mine.sa_handler);
}
