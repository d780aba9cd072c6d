// gantt.html in a real browser: headless Chromium renders the page (a screenshot
// that is not blank) and dumps the DOM after the script ran (each lane, one bar per
// activity for a small log; merged bars for a large one). Chromium is required: when
// /usr/bin/chromium is missing the tests fail and say how to install it.
#include <catch2/catch.hpp>

#include <filesystem>
#include <regex>

#include <fmt/format.h>

#include "sim/output/gantt_html.h"
#include "chromium_support.h"

using namespace memsim;
using namespace memsim::test;
namespace fs = std::filesystem;

namespace {

fs::path fresh_dir(const std::string& name) {
    const fs::path dir = fs::temp_directory_path() / name;
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

EventLog small_log() {
    EventLog log;
    log.add({lane::kCompute, 0.0, 2.0, 0, "conv1", {1, 2}, 4096});
    log.add({lane::kCompute, 2.0, 5.0, 1, "relu1", {2, 3}, 4096});
    log.add({lane::kDiskWrite, 2.0, 4.0, 0, "swap out t2", {2}, 4096});
    log.add({lane::kStall, 5.0, 6.0, 2, "wait for t2", {2}, 0});
    log.add({lane::kDiskRead, 4.5, 6.0, 2, "swap in t2", {2}, 4096});
    log.add({lane::kCompute, 6.0, 8.0, 2, "relu1_grad", {2, 3}, 4096});
    log.add({lane::kRecompute, 8.0, 9.0, 3, "conv1 (again)", {2}, 4096});
    log.add({lane::kCompute, 9.0, 10.0, 3, "conv1_grad", {1, 2}, 4096});
    log.sample(0.0, 8192, 8192);
    log.sample(2.0, 12288, 12288);
    log.sample(4.0, 8192, 8192);
    log.sample(6.0, 12288, 12288);
    log.sample(10.0, 0, 0);
    log.budget_bytes = 16384;
    log.forward_end_ms = 5.0;
    return log;
}

}  // namespace

TEST_CASE("gantt.html in headless Chromium: each lane and one bar per activity") {
    const fs::path dir = fresh_dir("memsim_test_gantt_dom");
    Summary summary;
    summary.scenario = "small";
    summary.time_ms = 10.0;
    write_gantt_html(small_log(), summary, "small <scenario>", (dir / "gantt.html").string());
    const std::string dom = run_chromium(dir / "gantt.html", "--dump-dom", dir);
    INFO(dom.substr(0, 2000));
    for (const char* lane : {"compute", "recompute", "disk_write", "disk_read", "stall"}) {
        CHECK(count_matches(dom, std::regex(fmt::format("<g class=\"lane\" data-lane=\"{}\"", lane))) == 1);
    }
    CHECK(count_matches(dom, std::regex("class=\"bar\"")) == 8);
    CHECK(count_matches(dom, std::regex("class=\"bar\" data-lane=\"compute\"")) == 4);
    CHECK(count_matches(dom, std::regex("class=\"agg\"")) == 0);
    CHECK(count_matches(dom, std::regex("id=\"memory-in-use\"")) == 1);
    CHECK(count_matches(dom, std::regex("id=\"budget\"")) == 1);
    CHECK(count_matches(dom, std::regex("id=\"forward-end\"")) == 1);
    CHECK(dom.find("small &lt;scenario&gt;") != std::string::npos);
}

TEST_CASE("gantt.html in headless Chromium: the screenshot is not blank") {
    const fs::path dir = fresh_dir("memsim_test_gantt_png");
    write_gantt_html(small_log(), Summary{}, "small", (dir / "gantt.html").string());
    run_chromium(dir / "gantt.html", fmt::format("--screenshot='{}'", (dir / "gantt.png").string()), dir);
    REQUIRE(fs::exists(dir / "gantt.png"));
    const PixelStats stats = png_pixel_stats(slurp(dir / "gantt.png"));
    CHECK(stats.distinct_colors >= 8);       // lane colours, text, curve
    CHECK(stats.non_white_share > 0.01);     // something is drawn
    CHECK(stats.non_white_share < 0.9);      // and it is not an error page
}

TEST_CASE("gantt.html stays small for 4k operators and 10k I/Os: sub-pixel bars are merged") {
    EventLog log;
    double t = 0;
    for (int op = 0; op < 4000; ++op) {
        log.add({lane::kCompute, t, t + 0.5, op, fmt::format("op{}", op), {op}, 1000});
        for (int k = 0; k < 5 && op * 5 / 2 + k < 10000 && op % 2 == 0; ++k)
            log.add({k % 2 ? lane::kDiskRead : lane::kDiskWrite, t + 0.1 * k, t + 0.1 * k + 0.08, op,
                     fmt::format("io{}", k), {op}, 512});
        log.sample(t, 1000ULL * (op % 100), 900ULL * (op % 100));
        t += 0.5;
    }
    log.forward_end_ms = t / 2;
    const fs::path dir = fresh_dir("memsim_test_gantt_large");
    write_gantt_html(log, Summary{}, "large", (dir / "gantt.html").string());
    CHECK(fs::file_size(dir / "gantt.html") < 3'000'000);
    const std::string dom = run_chromium(dir / "gantt.html", "--dump-dom", dir);
    const int bars = count_matches(dom, std::regex("class=\"bar\"")), merged = count_matches(dom, std::regex("class=\"agg\""));
    CHECK(merged > 0);
    CHECK(bars + merged < 5000);  // at most a few rectangles per pixel column and lane, not 14k hairlines
    for (const char* lane : {"compute", "disk_write", "disk_read"})
        CHECK(count_matches(dom, std::regex(fmt::format("<g class=\"lane\" data-lane=\"{}\"", lane))) == 1);
}
