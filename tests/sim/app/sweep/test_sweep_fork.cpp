// Sweeps without a process per point: the points run in children forked after the
// workload is loaded. The forked sweep writes the same results.csv, plots and point
// summaries as a `memsim run` process per point (--process-per-point), on a sweep with
// ok, oom and error points; the process pool turns a crashing child into an exit code
// and keeps going.
#include <catch2/catch.hpp>

#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <vector>

#include <fmt/format.h>

#include "file_support.h"
#include "sim/app/sweep/process_pool.h"
#include "sim/report/output_folder.h"
#include "sim/report/point_results.h"

using namespace memsim::test;
namespace fs = std::filesystem;

TEST_CASE("sweep: forked points give the same results, plots and summaries as a process per point") {
    const fs::path dir = fresh_dir("sweep_fork");
    const fs::path scenario = dir / "fork.yaml";
    // batch 3 is not in the profile (1, 2, 4, 8): an error row; a 5MB budget: oom rows.
    std::ofstream(scenario) << "name: fork\n"
                               "workload: {profile: examples/mlp, batch: 4}\n"
                               "platform: configs/phone.yaml\n"
                               "policy: {allocator: pool, recompute: {heuristic: dtr}}\n"
                               "sweep:\n"
                               "  workload.batch: [2, 3, 4]\n"
                               "  platform.memory.budget: [5MB, 64MiB]\n";
    const std::string out = (dir / "out").string();
    const Outcome per_process = run_memsim(fmt::format("sweep {} --jobs 2 --process-per-point --out {}", scenario.string(), out));
    INFO(per_process.err);
    REQUIRE(per_process.code == 0);
    fs::rename(dir / "out", dir / "per_process");
    const Outcome forked = run_memsim(fmt::format("sweep {} --jobs 2 --out {}", scenario.string(), out));
    INFO(forked.err);
    REQUIRE(forked.code == 0);
    CHECK_THAT(forked.out, Catch::Contains("6 points: 2 ok, 4 failed"));

    const std::string csv = read_file(dir / "out" / "results.csv");
    CHECK(csv == read_file(dir / "per_process" / "results.csv"));
    CHECK_THAT(csv, Catch::Contains("\n0003,3,5MB,error,") && Catch::Contains("no batch 3"));
    CHECK_THAT(csv, Catch::Contains("\n0001,2,5MB,oom,") && Catch::Contains("\n0002,2,64MiB,ok,"));
    for (const auto& entry : fs::directory_iterator(dir / "out")) {
        if (entry.path().extension() != ".svg") continue;
        INFO(entry.path());
        CHECK(read_file(entry.path()) == read_file(dir / "per_process" / entry.path().filename()));
    }
    for (const char* point : {"0001", "0002", "0005", "0006"}) {
        INFO(point);
        CHECK(read_file(dir / "out" / "points" / point / "summary.json") ==
              read_file(dir / "per_process" / "points" / point / "summary.json"));
        CHECK(read_file(dir / "out" / "points" / point / "log.txt") ==
              read_file(dir / "per_process" / "points" / point / "log.txt"));
    }
    CHECK(read_file(dir / "out" / "points" / "0003" / "log.txt") ==
          read_file(dir / "per_process" / "points" / "0003" / "log.txt"));
}

TEST_CASE("process pool: forked jobs see what prepare loaded, started follows each fork, and a crashing child is an exit code, not the end") {
    const fs::path dir = fresh_dir("process_pool");
    int loaded = 0;  // set by prepare in the parent, read by the forked child
    std::vector<memsim::ProcessJob> jobs(5);
    for (int i = 0; i < 5; ++i) {
        jobs[i].log_path = (dir / fmt::format("{}.log", i)).string();
        jobs[i].prepare = [&loaded, i] { loaded = 10 + i; };
    }
    jobs[0].body = [&loaded] { std::printf("loaded %d\n", loaded); return loaded == 10 ? 0 : 9; };
    // abort rather than a segfault: the sanitizer build handles SIGSEGV itself and exits 1.
    jobs[1].body = [] { std::abort(); return 0; };
    jobs[2].body = [] { return 3; };
    jobs[3].body = []() -> int { throw std::runtime_error("bad point"); };
    jobs[4].body = [&loaded] { return loaded == 14 ? 0 : 9; };
    // `started` runs in the parent right after each fork, before the next job's prepare.
    std::vector<int> started;
    for (int i = 0; i < 5; ++i) jobs[i].started = [&started, &loaded] { started.push_back(loaded); };
    std::vector<int> codes(5, -1);
    memsim::run_processes(jobs, 2, [&](std::size_t i, const memsim::ProcessOutcome& o) { codes[i] = o.exit_code; }, [] {});
    CHECK(codes == std::vector<int>{0, 128 + SIGABRT, 3, 1, 0});
    CHECK(started == std::vector<int>{10, 11, 12, 13, 14});
    CHECK(read_file(dir / "0.log") == "loaded 10\n");
    CHECK(read_file(dir / "3.log") == "memsim: error: bad point\n");
    // A child killed by a signal wrote nothing about it: the pool's line says it.
    // (Catch's own handler, inherited by the child, may print its report before.)
    CHECK_THAT(read_file(dir / "1.log"), Catch::EndsWith("\nmemsim: the point's process was killed by signal 6 (SIGABRT)\n") ||
                                             Catch::Equals("memsim: the point's process was killed by signal 6 (SIGABRT)\n"));
}

TEST_CASE("sweep crash: a point killed by a signal reads as killed by that signal, not as a folder still being written") {
    const fs::path dir = fresh_dir("sweep_killed_point");
    const memsim::SweepPoint point{1, {"4"}};
    const fs::path point_dir = memsim::point_dir(dir.string(), point);
    fs::create_directories(point_dir);
    // What a run leaves when it dies mid-way: its folder marked, its log cut short.
    std::ofstream(point_dir / memsim::kIncompleteMark) << "memsim run\nmemsim run (pid 7) started writing this folder and did "
                                                          "not finish (it is still running, or it failed or was "
                                                          "interrupted): files here may be missing or partial; run it again\n";
    std::ofstream(point_dir / "log.txt") << "planning\nmemsim: the point's process was killed by signal 11 (SIGSEGV)\n";
    const memsim::PointResult r = memsim::read_point_result(dir.string(), point);
    CHECK(r.status == "error");
    CHECK(r.message == "killed by signal 11 (SIGSEGV); the files it left are partial");
    // A folder marked without that line (a run still going, or stopped by the user) keeps the mark's words.
    std::ofstream(point_dir / "log.txt") << "planning\n";
    CHECK_THAT(memsim::read_point_result(dir.string(), point).message, Catch::Contains("did not finish"));
}

// workload.costs: device times the operators with platform.gpu's model, so a sweep over
// presets must load the workload once per preset, not once for all (the forked sweep
// groups points by what can change their workload).
TEST_CASE("sweep: forked points over GPU presets each get their own device times, as memsim run gives them") {
    const fs::path dir = fresh_dir("sweep_gpu_presets");
    const fs::path scenario = dir / "gpu.yaml";
    std::ofstream(scenario) << "name: gpu\n"
                               "workload: {synthetic: gpt, layers: 1, hidden: 256, heads: 4, seq: 128, batch: 4, vocab: 512,\n"
                               "           precision: fp32, costs: device}\n"
                               "platform: {gpu: {preset: a100_80gb}}\n"
                               "sweep:\n"
                               "  platform.gpu.preset: [v100, h100_sxm]\n";
    const Outcome sweep = run_memsim(fmt::format("sweep {} --jobs 2 --out {}", scenario.string(), (dir / "out").string()));
    INFO(sweep.err);
    REQUIRE(sweep.code == 0);
    // compute_ms as summary.json writes it (the same number text: the same double).
    const auto compute = [](const std::string& summary) {
        const auto at = summary.find("\"compute_ms\": ");
        REQUIRE(at != std::string::npos);
        return summary.substr(at, summary.find(',', at) - at);
    };
    std::vector<std::string> points;
    for (const auto& [preset, point] : {std::pair{"v100", "0001"}, {"h100_sxm", "0002"}}) {
        INFO(preset);
        const fs::path single = dir / preset;
        const Outcome run = run_memsim(fmt::format("run {} --set platform.gpu.preset={} --out {} -q", scenario.string(), preset,
                                                   single.string()));
        REQUIRE(run.code == 0);
        points.push_back(compute(read_file(dir / "out" / "points" / point / "summary.json")));
        CHECK(points.back() == compute(read_file(single / "summary.json")));
    }
    CHECK(points[0] != points[1]);
}
