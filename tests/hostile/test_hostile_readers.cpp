// Issue 31, items 4 and 10: every file memsim opens (inputs, its own outputs read back,
// sidecars) goes through one checked open: a FIFO, a directory or a device never hangs or
// confuses a reader, a file over its limit is refused, and path problems (a symbolic link
// loop, a path too long, a dangling link) read as memsim's messages, not the library's.
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include <fmt/format.h>

#include "hostile_support.h"
#include "models/io/input_file.h"
#include "models/workload/input_error.h"
#include "sim/report/point_results.h"

using namespace memsim;
using namespace memsim::test;
namespace fs = std::filesystem;

namespace {

// `memsim ARGS` killed after 20 s: a reader that blocks on a FIFO shows as exit 137.
Outcome run_bounded(const std::string& args) {
    const fs::path dir = fresh_dir("bounded_io");
    const std::string cmd = "timeout -s KILL 20 " + std::string(MEMSIM_BINARY) + " " + args + " >" + (dir / "out").string() +
                            " 2>" + (dir / "err").string();
    const int status = std::system(cmd.c_str());
    Outcome o;
    o.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    o.out = read_file(dir / "out");
    o.err = read_file(dir / "err");
    return o;
}

const std::string kLog = R"({"INSTRUCTION":"CONSTANT","NAME":"x"}
{"INSTRUCTION":"MEMORY","MEMORY":"10","NAME":"x"}
{"ARGS":["x"],"INSTRUCTION":"CALL","NAME":"f","RESULT":["y"],"TIME":"1000"}
{"INSTRUCTION":"MEMORY","MEMORY":"20","NAME":"y"}
{"ALIAS":"-1","INSTRUCTION":"ALIAS","NAME":"y"}
)";

void fifo(const fs::path& path) {
    fs::create_directories(path.parent_path());
    REQUIRE(::mkfifo(path.c_str(), 0600) == 0);
}

}  // namespace

TEST_CASE("hostile readers: a FIFO as a point's log.txt in merge is reported, not waited for (issue 31 example)") {
    const fs::path dir = fresh_dir("merge_fifo");
    const std::string scenario = write_text(dir / "s.yaml", "name: s\nworkload: {synthetic: uniform_linear, n: 3}\n"
                                                            "sweep: {workload.n: [2, 3]}\n");
    REQUIRE(run_memsim("sweep " + scenario + " --emit-jobs " + (dir / "jobs").string()).code == 0);
    // Point 1 never ran and its log.txt is a FIFO; point 2 ran.
    fifo(dir / "jobs" / "points" / "0001" / "log.txt");
    REQUIRE(run_memsim("run " + (dir / "jobs" / "points" / "0002" / "scenario.yaml").string() + " -q").code == 0);
    const Outcome o = run_bounded("merge " + (dir / "jobs").string());
    INFO(o.out << o.err);
    CHECK(o.code == 0);
    const std::string csv = read_file(dir / "jobs" / "results.csv");
    CHECK_THAT(csv, Catch::Contains("0001,2,error,") && Catch::Contains("log.txt: cannot open the point's log: it is a FIFO"));
    CHECK_THAT(csv, Catch::Contains("0002,3,ok,"));
}

TEST_CASE("hostile readers: every kind of input refuses a FIFO, a directory and a device, naming the file") {
    const fs::path dir = fresh_dir("reader_kinds");
    const fs::path profile = copy_example_profile("reader_kinds_profile");
    const std::string log = write_text(dir / "ok.log", kLog);
    // What is replaced by a FIFO, and the command that reads it.
    struct Case {
        fs::path path;
        std::string args;
    };
    const std::string scenario = write_text(dir / "s.yaml", "name: s\nworkload: {profile: " + profile.string() +
                                                                ", batch: 4}\nplatform: " + (dir / "p.yaml").string() + "\n");
    const std::vector<Case> cases = {
        {dir / "fifo.yaml", "run " + (dir / "fifo.yaml").string()},
        {dir / "p.yaml", "run " + scenario},                                     // the platform file it names
        {profile / "mlp.4.resize_info.json", "info " + profile.string() + " --batch 4"},
        {dir / "records.json", "plan -s naive --records " + (dir / "records.json").string()},
        {dir / "ok.log.meta.json", "info --dtr-log " + log},                    // the trace sidecar
        {dir / "sweep" / "sweep.json", "merge " + (dir / "sweep").string()},    // a sweep plan read back
        {dir / "snap.pickle", "info --torch-snapshot " + (dir / "snap.pickle").string()},  // a PyTorch snapshot
    };
    for (const Case& c : cases) {
        INFO(c.args);
        fs::remove(c.path);
        fifo(c.path);
        const Outcome o = run_bounded(c.args);
        CHECK(o.code == 1);
        CHECK_THAT(o.err, Catch::StartsWith("memsim: error: " + c.path.string() + ": cannot open") &&
                              Catch::Contains("it is a FIFO"));
        fs::remove(c.path);
    }
    // A directory where sweep.json should be: no "basic_filebuf::underflow".
    fs::create_directories(dir / "dirplan" / "sweep.json");
    const Outcome d = run_bounded("merge " + (dir / "dirplan").string());
    CHECK(d.code == 1);
    CHECK_THAT(d.err, Catch::StartsWith("memsim: error: " + (dir / "dirplan" / "sweep.json").string() +
                                        ": cannot open the sweep plan: it is a directory"));
    // A device as a scenario.
    CHECK_THAT(run_bounded("run /dev/zero").err, Catch::Contains("/dev/zero: cannot open scenario: it is a device"));
}

TEST_CASE("hostile readers: a file over its reader's limit is refused before it is read") {
    const fs::path dir = fresh_dir("reader_limits");
    // A sparse 70 GiB DTR log: refused from its size, nothing read.
    const fs::path huge = dir / "huge.log";
    write_text(huge, "x");
    fs::resize_file(huge, 70ULL << 30);
    CHECK_THROWS_WITH(InputFile(huge.string(), "DTR log", kMaxDtrLogBytes),
                      Catch::StartsWith(huge.string() + ": cannot open DTR log: it is 75161927680 bytes, more than the "
                                                        "68719476736 bytes (limit)"));
    // A 17 MiB scenario.
    const std::string big = write_text(dir / "big.yaml", "name: big\n" + std::string(17 << 20, '#'));
    const Outcome o = run_memsim("run " + big);
    CHECK(o.code == 1);
    CHECK_THAT(o.err, Catch::Contains(big + ": cannot open scenario: it is 17825802 bytes, more than the 16777216 bytes"));
    // Within the limit, read whole; the tail of a file of any size.
    const std::string ok = write_text(dir / "ok.txt", "line one\nline two\n");
    CHECK(read_input_file(ok, "text", 18) == "line one\nline two\n");
    CHECK_THROWS_WITH(read_input_file(ok, "text", 17), Catch::Contains("it is 18 bytes, more than the 17 bytes (limit)"));
    CHECK(InputFile(ok, "text", 100).read_tail(9) == "line two\n");
}

TEST_CASE("hostile readers: path problems are said in words, for inputs and for the output folder (issue 31, item 10)") {
    const fs::path dir = fresh_dir("reader_paths");
    fs::create_symlink(dir / "loop", dir / "loop");
    fs::create_symlink(dir / "missing_target", dir / "dangling");
    write_text(dir / "a_file", "x");
    const std::string long_name(300, 'a');
    // Inputs.
    CHECK_THAT(run_memsim("run " + (dir / "loop").string()).err,
               Catch::Contains((dir / "loop").string() + ": cannot open scenario: the path has a symbolic link loop"));
    CHECK_THAT(run_memsim("run " + (dir / long_name).string()).err,
               Catch::Contains("the path is longer than the system allows (4096 bytes in all, 255 per name)"));
    CHECK_THAT(run_memsim("info --dtr-log " + (dir / "a_file" / "x.log").string()).err,
               Catch::Contains("a part of the path is a file, not a folder"));
    // The output folder: "File exists" was all a dangling link got.
    const std::string run = "run scenarios/example.yaml -q --out ";
    CHECK_THAT(run_memsim(run + (dir / "dangling").string()).err,
               Catch::Contains((dir / "dangling").string() + ": cannot create the output folder: '" + (dir / "dangling").string() +
                               "' is a symbolic link to '" + (dir / "missing_target").string() + "', which does not exist"));
    CHECK_THAT(run_memsim(run + (dir / "dangling" / "sub").string()).err, Catch::Contains("which does not exist"));
    CHECK_THAT(run_memsim(run + (dir / "loop").string()).err, Catch::Contains("is a symbolic link in a loop"));
    CHECK_THAT(run_memsim(run + (dir / "a_file").string()).err, Catch::Contains("'" + (dir / "a_file").string() + "' is a file, not a folder"));
    CHECK_THAT(run_memsim(run + (dir / long_name).string()).err, Catch::Contains("the path is longer than the system allows"));
    for (const std::string& name : {std::string("dangling"), std::string("loop"), std::string("a_file")}) {
        INFO(name);
        const Outcome o = run_memsim(run + (dir / name).string());
        CHECK(o.code == 1);
        CHECK_THAT(o.err, !Catch::Contains("filesystem error") && !Catch::Contains("File exists"));
    }
}

TEST_CASE("hostile readers: the last line of a point's log is bounded and printable in results.csv (issue 31, item 8)") {
    const fs::path dir = fresh_dir("long_log_line");
    const SweepPoint point{1, {}};
    // 8 MiB of output, ending with a line holding an escape sequence and bytes that are not UTF-8.
    std::string log(8 << 20, 'x');
    for (std::size_t i = 79; i < log.size(); i += 80) log[i] = '\n';
    log.back() = '\n';
    const fs::path log_path = fs::path(point_dir(dir.string(), point)) / "log.txt";
    write_text(log_path, log + "memsim: error: \x1b[31m" + std::string(1000, 'y') + "\xff\xfe\x07\n\n");
    const PointResult r = read_point_result(dir.string(), point);
    CHECK(r.status == "error");
    CHECK_THAT(r.message, Catch::Contains("log.txt ends: memsim: error: ?[31myyy") && Catch::EndsWith("yyy..."));
    CHECK(r.message.size() < 600);
    CHECK(r.message.find('\x1b') == std::string::npos);
    CHECK(r.message.find('\xff') == std::string::npos);
    // A last line of 1 MB: its end is what is read (the last 64 KiB of the log), and quoted cut short.
    write_text(log_path, log + std::string(1 << 20, 'z') + "\n");
    const PointResult z = read_point_result(dir.string(), point);
    CHECK_THAT(z.message, Catch::Contains("log.txt ends: zzz"));
    CHECK(z.message.size() < 600);
    // Only the end of the log is read: a multi-byte character cut at the start is a '?', not an error.
    write_text(fs::path(point_dir(dir.string(), point)) / "log.txt", "ok\nlast: caf\xc3\xa9\n");
    CHECK_THAT(read_point_result(dir.string(), point).message, Catch::EndsWith("log.txt ends: last: caf\xc3\xa9"));
}

TEST_CASE("hostile readers: merge and a profile folder given a file, a device or a FIFO say it is no folder (own sweep finding)") {
    // merge said "/dev/zero is marked INCOMPLETE (... a part of the path is a file ...)",
    // info said "profile folder does not exist" for a file that exists.
    const fs::path dir = fresh_dir("not_folders");
    write_text(dir / "a_file", "x");
    for (const std::string& path : {(dir / "a_file").string(), std::string("/dev/zero")}) {
        INFO(path);
        CHECK_THAT(run_memsim("merge " + path).err, Catch::Contains(path + ": not a folder; `memsim merge DIR` needs a folder") &&
                                                        !Catch::Contains("INCOMPLETE"));
        CHECK_THAT(run_memsim("info " + path + " -b 4").err,
                   Catch::Contains(path + ": the profile folder is not a folder (a file, a device or a FIFO)"));
    }
    const Outcome missing = run_memsim("merge " + (dir / "missing").string());
    CHECK(missing.code == 1);
    CHECK_THAT(missing.err, Catch::Contains("cannot read the sweep folder: No such file or directory"));
    CHECK_FALSE(fs::exists(dir / "missing"));  // merge does not create what it should read
}
