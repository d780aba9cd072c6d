// memsim find on workloads whose response is known by hand: uniform_linear with n
// operators a pass has a peak of n bytes and takes 2n ms at speed_scale 1 (2n / scale
// otherwise; models/workload/synthetic.h). Monotone responses give the exact threshold
// (integers) or one within the tolerance (continuous); a condition that holds on two
// separate intervals is detected and searched exhaustively; bad input is an error.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>

#include <fmt/format.h>

#include "file_support.h"

using namespace memsim::test;
namespace fs = std::filesystem;

namespace {

fs::path uniform_linear_scenario(const fs::path& dir) {
    const fs::path scenario = dir / "ul.yaml";
    std::ofstream(scenario) << "name: ul\n"
                               "workload: {synthetic: uniform_linear, n: 10}\n"
                               "platform: {disk: {bandwidth: 100MB/s}}\n"
                               "policy: {allocator: os}\n";
    return scenario;
}

// The results.csv rows, split at commas (no cell of these sweeps holds one).
std::vector<std::vector<std::string>> csv_rows(const fs::path& file) {
    std::vector<std::vector<std::string>> rows;
    std::ifstream in(file);
    std::string line;
    while (std::getline(in, line)) {
        std::vector<std::string> cells;
        std::size_t begin = 0;
        while (true) {
            const std::size_t comma = line.find(',', begin);
            cells.push_back(line.substr(begin, comma == std::string::npos ? std::string::npos : comma - begin));
            if (comma == std::string::npos) break;
            begin = comma + 1;
        }
        rows.push_back(cells);
    }
    return rows;
}

}  // namespace

TEST_CASE("find: the largest n whose peak fits 37 bytes is 37, by bisection, and the points are a sweep folder") {
    const fs::path dir = fresh_dir("find_max");
    const fs::path scenario = uniform_linear_scenario(dir);
    const Outcome o = run_memsim(fmt::format("find {} --maximize workload.n --range 1..100 --while 'peak_bytes <= 37' "
                                             "--jobs 1 --out {}",
                                             scenario.string(), (dir / "out").string()));
    INFO(o.out << o.err);
    REQUIRE(o.code == 0);
    CHECK_THAT(o.out, Catch::Contains("find: the largest workload.n in 1..100 where 'peak_bytes <= 37'"));
    CHECK_THAT(o.out, Catch::Contains("answer: workload.n = 37 (holds there, fails at 38, the next value evaluated above; "
                                      "exact for an integer key)"));
    CHECK_THAT(o.out, !Catch::Contains("not monotone"));
    // The grid 1 2 3 6 10 18 32 56 100 (log), then bisection of 32..56: 42 37 34 35 36 39 38 or so; never all 100.
    const auto rows = csv_rows(dir / "out" / "results.csv");
    REQUIRE(rows.size() > 10);
    CHECK(rows.size() < 25);
    CHECK(rows[0][0] == "point");
    CHECK(rows[0][1] == "workload.n");
    const auto peak = std::find(rows[0].begin(), rows[0].end(), "peak_bytes") - rows[0].begin();
    REQUIRE(peak < static_cast<long>(rows[0].size()));
    int previous = 0;
    for (std::size_t i = 1; i < rows.size(); ++i) {
        const int n = std::stoi(rows[i][1]);
        CHECK(n > previous);  // rows in order of value
        previous = n;
        CHECK(rows[i][2] == "ok");
        CHECK(rows[i][peak] == rows[i][1]);  // peak_bytes = n
    }
    CHECK(fs::exists(dir / "out" / "plot_peak_bytes_vs_workload.n.svg"));
    CHECK(fs::exists(dir / "out" / "sweep.json"));
    // memsim merge rebuilds the same table from the folder.
    const std::string csv = read_file(dir / "out" / "results.csv");
    REQUIRE(run_memsim("merge " + (dir / "out").string()).code == 0);
    CHECK(read_file(dir / "out" / "results.csv") == csv);
}

TEST_CASE("find: the smallest speed_scale for a 20 ms pass to take 8 ms is 2.5, within the tolerance") {
    const fs::path dir = fresh_dir("find_until");
    const fs::path scenario = uniform_linear_scenario(dir);
    const Outcome o = run_memsim(fmt::format("find {} --vary platform.gpu.speed_scale --range 0.1..10 --until 'time_ms <= 8' "
                                             "--jobs 2 --out {}",
                                             scenario.string(), (dir / "out").string()));
    INFO(o.out << o.err);
    REQUIRE(o.code == 0);
    std::smatch m;
    REQUIRE(std::regex_search(o.out, m, std::regex(R"(answer: platform.gpu.speed_scale = ([0-9.]+) \(holds there, fails at ([0-9.]+), the next value evaluated below; within 1%\))")));
    const double answer = std::stod(m[1]), beyond = std::stod(m[2]);
    CHECK(answer >= 2.5);         // 20 / 2.5 = 8 ms
    CHECK(beyond < 2.5);
    CHECK(answer / beyond - 1 <= 0.01);
}

TEST_CASE("find: a condition that holds on two separate ranges is not monotone and is searched exhaustively") {
    const fs::path dir = fresh_dir("find_nonmonotone");
    const fs::path scenario = uniform_linear_scenario(dir);
    // Holds for n <= 10 and for 30 <= n <= 40. The log grid 1 2 3 5 8 13 23 38 64 sees
    // yes yes yes yes yes no no yes no: bisecting its first change would answer 10.
    const Outcome o = run_memsim(fmt::format("find {} --maximize workload.n --range 1..64 "
                                             "--while 'peak_bytes <= 10 or peak_bytes >= 30 and peak_bytes <= 40' --out {}",
                                             scenario.string(), (dir / "out").string()));
    INFO(o.out << o.err);
    REQUIRE(o.code == 0);
    CHECK_THAT(o.out, Catch::Contains("64 points evaluated (9 on the first grid)"));
    CHECK_THAT(o.out, Catch::Contains("not monotone: the condition changes 3 times between neighbouring values; every "
                                      "value of the range was evaluated, so the answer is exact"));
    CHECK_THAT(o.out, Catch::Contains("answer: workload.n = 40 (holds there, fails at 41, the next value evaluated above"));
}

TEST_CASE("find: bad ranges, conditions and fields are errors naming the option") {
    const fs::path dir = fresh_dir("find_errors");
    const std::string scenario = uniform_linear_scenario(dir).string();
    const std::string out = " --out " + (dir / "out").string();
    struct Case {
        std::string args, message;
    };
    for (const Case& c : std::vector<Case>{
             {"--maximize workload.n --range 5..1 --while 'peak_bytes <= 3'",
              "--range: '5..1': the first end must be below the second"},
             {"--maximize workload.n --range 1MB..2ms --while 'peak_bytes <= 3'",
              "--range: '1MB..2ms': the ends are not numbers, nor quantities of the same kind with units"},
             {"--maximize workload.n --range 1-5 --while 'peak_bytes <= 3'", "--range: '1-5': no '..' between the ends"},
             {"--maximize workload.n --range 1..5 --while 'peak_byte <= 3'",
              "--while: 'peak_byte <= 3': summary.json has no field 'peak_byte'; did you mean 'peak_bytes'?"},
             {"--maximize workload.n --range 1..5 --while 'peak_bytes <'", "--while: 'peak_bytes <': ends where a value was expected"},
             {"--range 1..5 --while 'peak_bytes <= 3'", "say what to search"},
             {"--maximize workload.n --range 1..5", "--maximize/--minimize needs --while COND"},
             {"--maximize workload.nn --range 1..5 --while 'peak_bytes <= 3'", "workload.nn"},
         }) {
        INFO(c.args);
        const Outcome o = run_memsim("find " + scenario + " " + c.args + out);
        CHECK(o.code == 1);
        CHECK_THAT(o.err, Catch::Contains("memsim: error: ") && Catch::Contains(c.message));
    }
}

TEST_CASE("find: a condition too deep, not finite or naming no summary field stops before any point runs (issue 31)") {
    const fs::path dir = fresh_dir("find_deep");
    const std::string scenario = uniform_linear_scenario(dir).string();
    for (const std::string& condition :
         {std::string(60000, '(') + "peak_bytes <= 3" + std::string(60000, ')'), std::string("overhead <= nan"),
          std::string("peak_bytes <= 3 and (tim_ms < 1)")}) {
        const Outcome o = run_memsim("find " + scenario + " --maximize workload.n --range 1..5 --while '" + condition +
                                     "' --out " + (dir / "out").string());
        CHECK(o.code == 1);
        CHECK_THAT(o.err, Catch::StartsWith("memsim: error: --while: '"));
        CHECK(o.err.size() < 1000);  // the condition is quoted cut short
        CHECK_FALSE(fs::exists(dir / "out"));  // no point ran
    }
}
