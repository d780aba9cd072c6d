// Issue 31, item 6: an output folder is either wholly one run's, or marked INCOMPLETE
// (and `memsim merge` refuses it); a second memsim writing the same folder is refused
// with a message naming the first (sim/report/output_folder.h).
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include <fmt/format.h>

#include "hostile_support.h"
#include "models/workload/input_error.h"
#include "sim/report/output_folder.h"
#include "sim/report/point_results.h"

using namespace memsim;
using namespace memsim::test;
namespace fs = std::filesystem;

namespace {

bool has(const fs::path& dir, const std::string& name) { return fs::exists(fs::symlink_status(dir / name)); }

// Whether a process holds the flock of this lock file (a file left by a killed process is free).
bool locked(const fs::path& lock) {
    const int fd = ::open(lock.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return false;
    const bool held = ::flock(fd, LOCK_EX | LOCK_NB) != 0;
    ::close(fd);
    return held;
}

}  // namespace

TEST_CASE("hostile output folders: a failed re-run leaves no old summary beside its new files, and the folder marked (issue 31 example)") {
    const fs::path dir = fresh_dir("rerun_fails");
    const std::string out = (dir / "out").string();
    REQUIRE(run_memsim("run scenarios/example.yaml -q --out " + out).code == 0);
    CHECK(has(out, "summary.json"));
    CHECK_FALSE(has(out, kIncompleteMark));
    CHECK_FALSE(has(out, kLockFile));
    // The re-run writes events.csv, then cannot write gantt.html (16 KiB file size limit).
    const Outcome o = run_memsim_with("trap '' XFSZ; ulimit -f 16;",
                                      "run scenarios/example.yaml --set output.events=true --set output.gantt=true -q --out " + out);
    CHECK(o.code == 1);
    CHECK_FALSE(has(out, "summary.json"));  // the old run's, beside the new events.csv, before
    CHECK(has(out, "events.csv"));
    REQUIRE(has(out, kIncompleteMark));
    CHECK_THAT(read_file(fs::path(out) / kIncompleteMark), Catch::StartsWith("memsim run\nmemsim run (pid "));
    CHECK_FALSE(has(out, kLockFile));  // the lock goes with the process
    CHECK_THAT(*incomplete_mark(out), Catch::Contains("is marked INCOMPLETE: memsim run (pid"));
    // Read as a sweep point, it is an error row, not the files it holds.
    const fs::path sweep = dir / "sweep";
    const SweepPoint point{1, {}};
    fs::create_directories(fs::path(point_dir(sweep.string(), point)).parent_path());
    fs::rename(out, point_dir(sweep.string(), point));
    const PointResult r = read_point_result(sweep.string(), point);
    CHECK(r.status == "error");
    CHECK_THAT(r.message, Catch::Contains("is marked INCOMPLETE"));
    // A run that then succeeds makes the folder wholly its own again.
    REQUIRE(run_memsim("run scenarios/example.yaml -q --out " + point_dir(sweep.string(), point)).code == 0);
    CHECK_FALSE(has(point_dir(sweep.string(), point), kIncompleteMark));
    CHECK_FALSE(has(point_dir(sweep.string(), point), "events.csv"));  // the failed run's, removed
    CHECK(read_point_result(sweep.string(), point).status == "ok");
}

TEST_CASE("hostile output folders: a run that fails before writing leaves an earlier run's folder as it was") {
    const fs::path dir = fresh_dir("fails_early");
    const std::string out = (dir / "out").string();
    REQUIRE(run_memsim("run scenarios/example.yaml -q --out " + out).code == 0);
    const std::string before = read_file(fs::path(out) / "summary.json");
    CHECK(run_memsim("run scenarios/example.yaml --set workload.batch=3 -q --out " + out).code == 1);  // no batch 3
    CHECK(read_file(fs::path(out) / "summary.json") == before);
    CHECK_FALSE(has(out, kIncompleteMark));
}

TEST_CASE("hostile output folders: a second writer of a folder is refused at once, naming the first (issue 31 example)") {
    const fs::path dir = fresh_dir("two_writers");
    const std::string out = (dir / "out").string();
    {
        // This process holds the folder, as a first `memsim run` would.
        OutputFolder first(out, "memsim run", EarlierOutputs::all);
        CHECK(has(out, kLockFile));
        const Outcome o = run_memsim("run scenarios/example.yaml -q --out " + out);
        CHECK(o.code == 1);
        CHECK_THAT(o.err, Catch::StartsWith(fmt::format("memsim: error: {}: another memsim (pid {}) is writing this output "
                                                        "folder; wait until it ends, or write to another folder (--out)",
                                                        out, ::getpid())));
        CHECK_FALSE(has(out, "summary.json"));
        // A sweep into it, or a merge of it, is refused the same way.
        const std::string scenario =
            write_text(dir / "s.yaml", "name: s\nworkload: {synthetic: uniform_linear, n: 2}\nsweep: {workload.n: [1, 2]}\n");
        CHECK_THAT(run_memsim("sweep " + scenario + " --out " + out).err, Catch::Contains("another memsim"));
        CHECK_THROWS_WITH(OutputFolder(out, "memsim merge", EarlierOutputs::results), Catch::Contains("another memsim"));
        first.complete();
    }
    CHECK_FALSE(has(out, kLockFile));
    CHECK_FALSE(has(out, kIncompleteMark));
    REQUIRE(run_memsim("run scenarios/example.yaml -q --out " + out).code == 0);
    // Two real runs at once: one of them is refused (which one depends on timing).
    const std::string scenario = write_text(dir / "slow.yaml", "name: slow\nworkload: {synthetic: uniform_linear, n: 100000}\n");
    const std::string cmd = fmt::format("{0} run {1} -q --out {2} 2>{3}/a.err & {0} run {1} -q --out {2} 2>{3}/b.err; wait",
                                        MEMSIM_BINARY, scenario, out, dir.string());
    std::system(cmd.c_str());
    const std::string errors = read_file(dir / "a.err") + read_file(dir / "b.err");
    // The runs overlap unless the first ends before the second starts: then both are fine.
    // The pid is named once the first has written it into the lock file; a second that
    // comes within that instant is refused without it.
    if (!errors.empty()) CHECK_THAT(errors, Catch::Contains("another memsim") && Catch::Contains("is writing this output folder"));
    CHECK(has(out, "summary.json"));
    CHECK_FALSE(has(out, kIncompleteMark));
}

TEST_CASE("hostile output folders: an interrupted re-run of a sweep leaves no old results beside its new plan, and merge refuses it (issue 31 example)") {
    const fs::path dir = fresh_dir("sweep_interrupted");
    const std::string out = (dir / "out").string();
    const std::string quick = write_text(dir / "quick.yaml", "name: q\nworkload: {synthetic: uniform_linear, n: 4}\n"
                                                             "sweep: {platform.gpu.speed_scale: [1, 2]}\n");
    REQUIRE(run_memsim("sweep " + quick + " -j 1 --out " + out).code == 0);
    REQUIRE(has(out, "results.csv"));
    // A slower sweep into the same folder, stopped by SIGTERM once it has started.
    const std::string slow = write_text(dir / "slow.yaml", "name: s\nworkload: {synthetic: uniform_linear, n: 100000}\n"
                                                           "sweep: {platform.gpu.speed_scale: [1, 2, 3, 4, 5, 6, 7, 8]}\n");
    const pid_t pid = ::fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
        ::execl(MEMSIM_BINARY, MEMSIM_BINARY, "sweep", slow.c_str(), "-j", "1", "--out", out.c_str(), (char*)nullptr);
        ::_exit(127);
    }
    // Until its own plan is written (it then runs at least a second more). The quick sweep's
    // plan is no sign: the slow one marks the folder first and removes that plan after, so
    // a stop in between leaves the quick sweep's files, rightly marked, but not this case.
    const bool planned = wait_until(
        [&] { return has(out, kIncompleteMark) && read_file(fs::path(out) / "sweep.json").find(slow) != std::string::npos; });
    ::kill(pid, SIGTERM);
    int status = 0;
    ::waitpid(pid, &status, 0);
    REQUIRE(planned);
    REQUIRE(WIFSIGNALED(status));
    CHECK(has(out, kIncompleteMark));
    CHECK_FALSE(has(out, "results.csv"));  // the quick sweep's, beside the slow one's plan, before
    for (const auto& e : fs::directory_iterator(out)) CHECK(e.path().filename().string().rfind("plot_", 0) != 0);
    const Outcome m = run_memsim("merge " + out);
    CHECK(m.code == 1);
    CHECK_THAT(m.err, Catch::Contains(out + " is marked INCOMPLETE: memsim sweep (pid " + std::to_string(pid)) &&
                          Catch::Contains("`memsim merge` reads only a folder whose sweep finished"));
    // Running the sweep again completes the folder. (The killed sweep's forked point may
    // still be running, holding its folder's lock and the root's: wait until they are free.)
    wait_until([&] {
        for (const auto& e : fs::recursive_directory_iterator(out))
            if (e.path().filename() == kLockFile && locked(e.path())) return false;
        return true;
    });
    REQUIRE(run_memsim("sweep " + quick + " -j 1 --out " + out).code == 0);
    CHECK_FALSE(has(out, kIncompleteMark));
    CHECK(run_memsim("merge " + out).code == 0);
}
