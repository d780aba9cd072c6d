// memsim sweep end to end: a 3x3 sweep gives 9 rows and the plots; --emit-jobs, then
// every line of jobs.txt run by a shell, then `memsim merge` gives byte-identical
// results.csv and plots; points that run out of memory are rows with status oom and
// the sweep still finishes; a job that never ran is an error row, not a crash.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <vector>

#include <fmt/format.h>

#include "file_support.h"

using namespace memsim::test;
namespace fs = std::filesystem;

namespace {

// The example MLP with asynchronous swapping on the phone; `sweep` is the sweep: section.
fs::path write_scenario(const fs::path& dir, const std::string& name, const std::string& policy, const std::string& sweep) {
    const fs::path path = dir / (name + ".yaml");
    std::ofstream(path) << fmt::format(
        "name: {}\n"
        "workload:\n  profile: examples/mlp\n  batch: 4\n"
        "platform: configs/phone.yaml\n"
        "policy:\n{}"
        "sweep:\n{}",
        name, policy, sweep);
    return path;
}

const char* const kSwapPolicy = "  allocator: pool\n  swap:\n    mode: async\n    select: feature_maps\n    prefetch: eager\n";
const char* const kSweep3x3 =
    "  platform.disk.bandwidth: [10MB/s, 100MB/s, 1GB/s]\n"
    "  policy.swap.prefetch: [eager, just_in_time, lead_ops:2]\n";

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
}

// One CSV row (RFC 4180 quoting: the warnings column is a quoted JSON array).
std::vector<std::string> split_csv_simple(const std::string& line) {
    std::vector<std::string> cells(1);
    bool quoted = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
            cells.back() += '"';
            ++i;
        } else if (c == '"') {
            quoted = !quoted;
        } else if (c == ',' && !quoted) {
            cells.emplace_back();
        } else {
            cells.back() += c;
        }
    }
    return cells;
}

std::size_t column(const std::vector<std::string>& header, const std::string& name) {
    const auto it = std::find(header.begin(), header.end(), name);
    REQUIRE(it != header.end());
    return static_cast<std::size_t>(it - header.begin());
}

long count_of(const std::string& text, const char* pattern) {
    const std::regex re(pattern);
    return std::distance(std::sregex_iterator(text.begin(), text.end(), re), std::sregex_iterator());
}

// Markers of points with a result: each has a tooltip starting "point NNNN" (legend markers
// have none; a failed point's cross is class "failed").
long point_markers(const std::string& svg) {
    return count_of(svg, "class=\"marker\" data-marker=\"[a-z_]+\"><title>point ");
}

const std::vector<std::string> kPlots3x3 = {
    "plot_time_ms_vs_platform.disk.bandwidth.svg", "plot_time_ms_vs_policy.swap.prefetch.svg",
    "plot_peak_bytes_vs_platform.disk.bandwidth.svg", "plot_peak_bytes_vs_policy.swap.prefetch.svg",
    "plot_stall_ms_vs_platform.disk.bandwidth.svg", "plot_stall_ms_vs_policy.swap.prefetch.svg",
    "plot_pareto_time_vs_peak.svg"};

}  // namespace

TEST_CASE("sweep: a 3x3 sweep gives 9 rows, every summary field, and the plots") {
    const fs::path dir = fresh_dir("sweep3x3");
    const fs::path scenario = write_scenario(dir, "three_by_three", kSwapPolicy, kSweep3x3);
    const Outcome o = run_memsim(fmt::format("sweep {} --jobs 3 --out {}", scenario.string(), (dir / "out").string()));
    INFO(o.err);
    REQUIRE(o.code == 0);
    CHECK_THAT(o.out, Catch::Contains("9 points: 9 ok, 0 failed"));
    // Not a terminal: one plain line per point, no progress bar redrawn with carriage returns.
    CHECK(o.err.find('\r') == std::string::npos);
    for (int i = 1; i <= 9; ++i) CHECK_THAT(o.err, Catch::Contains(fmt::format("[{}/9] ", i)));

    const std::vector<std::string> rows = lines_of(read_file(dir / "out" / "results.csv"));
    REQUIRE(rows.size() == 10);  // header + 9 points
    const std::vector<std::string> header = split_csv_simple(rows[0]);
    CHECK(std::vector<std::string>(header.begin(), header.begin() + 5) ==
          std::vector<std::string>{"point", "platform.disk.bandwidth", "policy.swap.prefetch", "status", "message"});
    for (const char* field : {"time_ms", "peak_bytes", "stall_ms", "live_peak_bytes", "compute_ms", "recompute_ms",
                              "bytes_written", "bytes_read", "swap_selected_tensors", "recomputed_ops", "evictions", "ops",
                              "swap_mode", "details.forward_ms", "details.backward_ms"})
        column(header, field);
    CHECK(std::find(header.begin(), header.end(), "scenario_resolved") == header.end());

    // The first key varies slowest; every point ran to ok; a faster disk never stalls more.
    const std::vector<std::string> bandwidths = {"10MB/s", "100MB/s", "1GB/s"},
                                   prefetches = {"eager", "just_in_time", "lead_ops:2"};
    const std::size_t stall = column(header, "stall_ms"), time = column(header, "time_ms"),
                      compute = column(header, "compute_ms");
    for (std::size_t i = 0; i < 9; ++i) {
        const std::vector<std::string> cells = split_csv_simple(rows[i + 1]);
        INFO(rows[i + 1]);
        REQUIRE(cells.size() == header.size());
        CHECK(cells[0] == fmt::format("{:04d}", i + 1));
        CHECK(cells[1] == bandwidths[i / 3]);
        CHECK(cells[2] == prefetches[i % 3]);
        CHECK(cells[3] == "ok");
        CHECK(cells[4].empty());
        CHECK(std::stod(cells[time]) >= std::stod(cells[compute]));  // swapping only adds stalls
        if (i >= 3) CHECK(std::stod(cells[stall]) <= std::stod(split_csv_simple(rows[i - 3 + 1])[stall]) + 1e-9);
    }
    for (int i = 1; i <= 9; ++i) CHECK(fs::exists(dir / "out" / "points" / fmt::format("{:04d}", i) / "summary.json"));

    for (const std::string& plot : kPlots3x3) {
        INFO(plot);
        REQUIRE(fs::exists(dir / "out" / plot));
        CHECK_THAT(o.out, Catch::Contains(plot));
    }
    // One line per value of the other parameter, one marker per point; bandwidth on a log axis.
    const std::string time_vs_bw = read_file(dir / "out" / "plot_time_ms_vs_platform.disk.bandwidth.svg");
    CHECK(count_of(time_vs_bw, "<g class=\"series\"") == 3);
    CHECK(point_markers(time_vs_bw) == 9);
    CHECK_THAT(time_vs_bw, Catch::Contains("data-name=\"prefetch=just_in_time\"") &&
                               Catch::Contains("disk bandwidth (MB/s) (log scale)") &&
                               Catch::Contains("iteration time (ms)") && Catch::Contains(">100<"));
    const std::string pareto = read_file(dir / "out" / "plot_pareto_time_vs_peak.svg");
    CHECK_THAT(pareto, Catch::Contains("peak memory (MiB)") && Catch::Contains("class=\"pareto-front\""));
}

TEST_CASE("sweep: --emit-jobs then every line of jobs.txt then merge gives the same results.csv") {
    const fs::path dir = fresh_dir("sweep_emit");
    const fs::path scenario = write_scenario(dir, "three_by_three", kSwapPolicy, kSweep3x3);
    const Outcome direct = run_memsim(fmt::format("sweep {} --jobs 4 --out {}", scenario.string(), (dir / "direct").string()));
    INFO(direct.err);
    REQUIRE(direct.code == 0);

    const Outcome emit = run_memsim(fmt::format("sweep {} --emit-jobs {}", scenario.string(), (dir / "jobs").string()));
    INFO(emit.err);
    REQUIRE(emit.code == 0);
    CHECK_THAT(emit.out, Catch::Contains("wrote 9 point scenarios") && Catch::Contains("memsim merge"));
    CHECK_FALSE(fs::exists(dir / "jobs" / "results.csv"));  // nothing ran yet
    const std::vector<std::string> jobs = lines_of(read_file(dir / "jobs" / "jobs.txt"));
    REQUIRE(jobs.size() == 9);
    // Run them the way a Slurm array task or GNU parallel would: each line alone, by a shell,
    // from another working directory, last one first.
    for (auto it = jobs.rbegin(); it != jobs.rend(); ++it) {
        INFO(*it);
        CHECK(std::system(fmt::format("cd / && bash -c {}", "'" + std::regex_replace(*it, std::regex("'"), "'\\''") + "'").c_str()) == 0);
    }
    for (int i = 1; i <= 9; ++i) CHECK(fs::exists(dir / "jobs" / "points" / fmt::format("{:04d}", i) / "scenario.yaml"));

    const Outcome merge = run_memsim("merge " + (dir / "jobs").string());
    INFO(merge.err);
    REQUIRE(merge.code == 0);
    CHECK_THAT(merge.out, Catch::Contains("9 points: 9 ok, 0 failed"));
    const std::string direct_csv = read_file(dir / "direct" / "results.csv");
    CHECK(lines_of(direct_csv).size() == 10);
    CHECK(read_file(dir / "jobs" / "results.csv") == direct_csv);
    for (const std::string& plot : kPlots3x3) {
        INFO(plot);
        CHECK(read_file(dir / "jobs" / plot) == read_file(dir / "direct" / plot));
    }

    // A job that never ran: merge still writes every row, that one as an error naming the folder.
    fs::remove(dir / "jobs" / "points" / "0005" / "summary.json");
    const Outcome partial = run_memsim("merge " + (dir / "jobs").string());
    REQUIRE(partial.code == 0);
    CHECK_THAT(partial.out, Catch::Contains("9 points: 8 ok, 1 failed"));
    const std::vector<std::string> rows = lines_of(read_file(dir / "jobs" / "results.csv"));
    REQUIRE(rows.size() == 10);
    CHECK_THAT(rows[5], Catch::StartsWith("0005,100MB/s,just_in_time,error,") && Catch::Contains("no summary.json"));
}

TEST_CASE("sweep: points that run out of memory are rows with status oom and the sweep finishes") {
    const fs::path dir = fresh_dir("sweep_oom");
    const fs::path scenario = write_scenario(dir, "budget_oom", "  allocator: pool\n  recompute:\n    heuristic: dtr\n",
                                             "  platform.memory.budget: [5MB, 9MB, 64MiB]\n");
    const Outcome o = run_memsim(fmt::format("sweep {} --jobs 2 --out {}", scenario.string(), (dir / "out").string()));
    INFO(o.err);
    CHECK(o.code == 0);  // failed points are results, not a failed sweep
    CHECK_THAT(o.out, Catch::Contains("3 points: 1 ok, 2 failed"));
    CHECK_THAT(o.err, Catch::Contains("platform.memory.budget=5MB: oom (out of memory at op"));
    const std::vector<std::string> rows = lines_of(read_file(dir / "out" / "results.csv"));
    REQUIRE(rows.size() == 4);
    CHECK_THAT(rows[1], Catch::StartsWith("0001,5MB,oom,\"out of memory at op"));
    CHECK_THAT(rows[2], Catch::StartsWith("0002,9MB,oom,\"out of memory at op"));
    CHECK_THAT(rows[3], Catch::StartsWith("0003,64MiB,ok,,"));
    // The plots mark the two points without a result instead of drawing them at zero.
    const std::string plot = read_file(dir / "out" / "plot_time_ms_vs_platform.memory.budget.svg");
    CHECK(count_of(plot, "class=\"failed\"") == 2);
    CHECK(point_markers(plot) == 1);
    CHECK_FALSE(fs::exists(dir / "out" / "plot_pareto_time_vs_peak.svg"));  // no policy swept
}

TEST_CASE("sweep: the shipped disk_speed_whatif runs as shipped, with plots and a Gantt chart per point") {
    const fs::path dir = fresh_dir("sweep_shipped");
    const Outcome o = run_memsim("sweep scenarios/disk_speed_whatif.yaml --out " + dir.string());
    INFO(o.err);
    REQUIRE(o.code == 0);
    CHECK_THAT(o.out, Catch::Contains("9 points: 9 ok, 0 failed") && Catch::Contains("each point's gantt.html"));
    CHECK(lines_of(read_file(dir / "results.csv")).size() == 10);
    for (int i = 1; i <= 9; ++i) CHECK(fs::exists(dir / "points" / fmt::format("{:04d}", i) / "gantt.html"));
    const std::string time = read_file(dir / "plot_time_ms_vs_platform.disk.bandwidth.svg");
    // Titles and axes name the key by its label with its unit; ticks are in that unit.
    CHECK_THAT(time, Catch::Contains("disk_speed_whatif: iteration time vs disk bandwidth<") &&
                         Catch::Contains("disk bandwidth (MB/s) (log scale)") && Catch::Contains(">23.4<") &&
                         Catch::Contains("iteration time (ms)"));
    CHECK(point_markers(time) == 9);
    // One line: the legend names it as its axis does, not by the summary field.
    CHECK_THAT(time, Catch::Contains("<g class=\"series\" data-name=\"iteration time (ms)\"") &&
                         !Catch::Contains("data-name=\"time_ms\""));
    const std::string peak = read_file(dir / "plot_peak_bytes_vs_platform.disk.bandwidth.svg");
    CHECK_THAT(peak, Catch::Contains("peak memory (MiB)"));
    CHECK_THAT(peak, Catch::Contains("<g class=\"series\" data-name=\"peak memory (MiB)\""));
    // The y axis spans the data (peaks of 76.31 to 78.18 MiB), with ticks at round numbers
    // of MiB: 76.5, 77, 77.5, 78 (not from round byte counts, not from 0).
    CHECK_THAT(peak, Catch::Contains("text-anchor=\"end\">76.5</text>") && Catch::Contains("text-anchor=\"end\">77</text>") &&
                         Catch::Contains("text-anchor=\"end\">77.5</text>") && Catch::Contains("text-anchor=\"end\">78</text>"));
    CHECK_THAT(peak, !Catch::Contains("text-anchor=\"end\">0</text>"));
    CHECK(fs::exists(dir / "plot_stall_ms_vs_platform.disk.bandwidth.svg"));
    CHECK_FALSE(fs::exists(dir / "plot_pareto_time_vs_peak.svg"));  // only the platform is swept
}

TEST_CASE("sweep: on a terminal a progress bar counts points done and failed, with an ETA") {
    const fs::path dir = fresh_dir("sweep_tty");
    const fs::path scenario = write_scenario(dir, "budget_oom", "  allocator: pool\n  recompute:\n    heuristic: dtr\n",
                                             "  platform.memory.budget: [5MB, 9MB, 64MiB]\n");
    // script(1) (util-linux, in every Debian) runs the sweep on a pseudo-terminal.
    const std::string command = fmt::format("sweep {} --jobs 2 --out {}", scenario.string(), (dir / "out").string());
    const std::string script = fmt::format("script -qec '{} {}' /dev/null > {} 2>&1", MEMSIM_BINARY, command,
                                           (dir / "tty.txt").string());
    REQUIRE(std::system(script.c_str()) == 0);
    const std::string tty = read_file(dir / "tty.txt");
    INFO(tty);
    CHECK_THAT(tty, Catch::Contains("\r\033[K[") && Catch::Contains("] 0/3 points  0 failed  2 running") &&
                        Catch::Contains("] 3/3 points  2 failed  0 running") && Catch::Contains("ETA"));
    CHECK_THAT(tty, Catch::Contains("[##############################] 3/3 points"));
    // Failed points are printed above the bar; no plain "[k/3]" lines on a terminal.
    CHECK_THAT(tty, Catch::Contains("0001 platform.memory.budget=5MB: oom"));
    CHECK(tty.find("[1/3]") == std::string::npos);
    CHECK_THAT(tty, Catch::Contains("3 points: 1 ok, 2 failed"));
}

TEST_CASE("sweep: map values are labelled by the keys that differ, and sweeping policy draws the Pareto plot") {
    const fs::path dir = fresh_dir("sweep_maps");
    const fs::path scenario = write_scenario(
        dir, "policy_maps", "  allocator: pool\n",
        "  policy:\n"
        "    - {allocator: os, swap: {mode: async, select: feature_maps, prefetch: eager}}\n"
        "    - {allocator: pool, swap: {mode: async, select: feature_maps, prefetch: eager}}\n"
        "  platform.disk.bandwidth: [10MB/s, 1GB/s]\n");
    const Outcome o = run_memsim(fmt::format("sweep {} --jobs 2 --out {}", scenario.string(), (dir / "out").string()));
    INFO(o.err);
    REQUIRE(o.code == 0);
    CHECK_THAT(o.out, Catch::Contains("4 points: 4 ok, 0 failed") && Catch::Contains("plot_pareto_time_vs_peak.svg"));
    const std::string by_policy = read_file(dir / "out" / "plot_time_ms_vs_policy.svg");
    CHECK_THAT(by_policy, Catch::Contains(">allocator=os<") && Catch::Contains(">allocator=pool<"));
    const std::string by_bandwidth = read_file(dir / "out" / "plot_time_ms_vs_platform.disk.bandwidth.svg");
    CHECK_THAT(by_bandwidth, Catch::Contains("data-name=\"allocator=os\"") && Catch::Contains("data-name=\"allocator=pool\""));
    // results.csv keeps the values as written (flow YAML), quoted because they hold commas.
    const std::vector<std::string> rows = lines_of(read_file(dir / "out" / "results.csv"));
    REQUIRE(rows.size() == 5);
    CHECK_THAT(rows[1], Catch::StartsWith("0001,\"{allocator: os, swap: {mode: async, select: feature_maps, prefetch: eager}}\",10MB/s,ok,"));
}
