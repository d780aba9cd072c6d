// gantt.html of a real run, in headless Chromium: `memsim run` on a small swapping
// scenario, then the page rendered (--dump-dom after its script ran, --screenshot).
// Every activity of events.csv is on the page exactly once, as its own bar or inside a
// merged one; the screenshot decodes and shows the lane colours; the #t=A,B link
// opens that window. Without /usr/bin/chromium these tests skip,
// loudly, and say how to install it (chromium_support.h).
#include <catch2/catch.hpp>

#include <filesystem>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "chromium_support.h"
#include "file_support.h"

using namespace memsim::test;
namespace fs = std::filesystem;

namespace {

// Activities per lane, from events.csv (lane is column 2; labels may be quoted, but come later).
std::map<std::string, int> activities_per_lane(const std::string& csv) {
    std::map<std::string, int> counts;
    std::istringstream in(csv);
    std::string line;
    std::getline(in, line);
    REQUIRE(line.rfind("record,lane,", 0) == 0);
    while (std::getline(in, line)) {
        if (line.rfind("activity,", 0) != 0) continue;
        const std::size_t from = 9, to = line.find(',', from);
        ++counts[line.substr(from, to - from)];
    }
    return counts;
}

struct PageBars {
    std::map<std::string, int> bars, merged, covered;  // per lane: single bars, merged bars, activities in both
    std::set<int> indexes;                              // data-i of the single bars
};

PageBars bars_in(const std::string& dom) {
    PageBars page;
    const std::regex bar("<rect class=\"bar\" data-lane=\"([^\"]+)\" data-i=\"(\\d+)\"");
    for (auto it = std::sregex_iterator(dom.begin(), dom.end(), bar); it != std::sregex_iterator(); ++it) {
        ++page.bars[(*it)[1]];
        ++page.covered[(*it)[1]];
        CHECK(page.indexes.insert(std::stoi((*it)[2])).second);  // no activity drawn twice
    }
    const std::regex agg("<rect class=\"agg\" data-lane=\"([^\"]+)\" data-count=\"(\\d+)\"");
    for (auto it = std::sregex_iterator(dom.begin(), dom.end(), agg); it != std::sregex_iterator(); ++it) {
        ++page.merged[(*it)[1]];
        page.covered[(*it)[1]] += std::stoi((*it)[2]);
    }
    return page;
}

// swap_modes with sync swapping of every feature map of the example MLP (59 operators),
// without a budget (a replaced platform keeps the scenario's, docs/budgets.md: null
// unsets it): compute, disk write, disk read and stall lanes, a few dozen of each.
fs::path run_small_scenario(const std::string& name) {
    const fs::path dir = fresh_dir(name);
    const Outcome o = run_memsim("run scenarios/swap_modes.yaml -q --set platform=configs/phone.yaml "
                                 "--set platform.memory.budget_ratio=null "
                                 "--set 'workload={profile: examples/mlp, batch: 4}' --set policy.allocator=pool "
                                 "--set policy.swap.select=feature_maps --set policy.swap.prefetch=eager "
                                 "--set policy.swap.mode=sync --set output.events=true "
                                 "--set output.gantt=true --set output.trace=false --out " + dir.string());
    INFO(o.err);
    REQUIRE(o.code == 0);
    REQUIRE(fs::exists(dir / "gantt.html"));
    REQUIRE(fs::exists(dir / "events.csv"));
    return dir;
}

}  // namespace

TEST_CASE("gantt chromium: a run of swap_modes shows each lane and every activity once", "[chromium]") {
    SKIP_WITHOUT_CHROMIUM();
    const fs::path dir = run_small_scenario("gantt_run_dom");
    const std::map<std::string, int> expected = activities_per_lane(read_file(dir / "events.csv"));
    REQUIRE(expected.size() == 4);  // compute, disk_write, disk_read, stall
    const std::string dom = dump_dom(dir / "gantt.html");
    INFO(dom.substr(0, 1500));
    for (const auto& [lane, count] : expected) {
        INFO("lane " << lane);
        CHECK(count_matches(dom, std::regex(fmt::format("<g class=\"lane\" data-lane=\"{}\"", lane))) == 1);
    }
    CHECK(count_matches(dom, std::regex("<g class=\"lane\"")) == 4);
    const PageBars page = bars_in(dom);
    CHECK(page.covered == expected);
    int total = 0;
    for (const auto& [lane, count] : expected) total += count;
    // 59 operators, 21 writes, 21 reads and the stalls of one iteration; at 1600 px most are wider than a pixel
    CHECK(total == 59 + 21 + 21 + expected.at("stall"));
    int drawn = 0;
    for (const auto& [lane, count] : page.bars) drawn += count;
    for (const auto& [lane, count] : page.merged) drawn += count;
    CHECK(drawn <= total);
    CHECK(page.bars.at("disk_write") + page.merged.count("disk_write") >= 1);
    CHECK(count_matches(dom, std::regex("id=\"memory-in-use\"")) == 1);
    CHECK(count_matches(dom, std::regex("id=\"forward-end\"")) == 1);

    // The title names the scenario; the summary line has the run's numbers.
    const nlohmann::json summary = nlohmann::json::parse(read_file(dir / "summary.json"));
    // (with the workload and scenario at hand the title goes on with the variant: ": pool, swap sync / ...")
    CHECK(dom.find("<h1>memsim: swap_modes") != std::string::npos);
    CHECK(dom.find(fmt::format("time <b>{:.3f} ms</b>", summary["time_ms"].get<double>())) != std::string::npos);
    CHECK(dom.find(fmt::format("stall <b>{:.3f} ms</b>", summary["stall_ms"].get<double>())) != std::string::npos);
}

TEST_CASE("gantt chromium: gantt.html#t=A..B opens the window from A to B ms", "[chromium]") {
    SKIP_WITHOUT_CHROMIUM();
    const fs::path dir = run_small_scenario("gantt_run_zoom");
    const nlohmann::json summary = nlohmann::json::parse(read_file(dir / "summary.json"));
    const double time_ms = summary["time_ms"];
    const std::string full = dump_dom(dir / "gantt.html", "900,700");
    // file://...gantt.html#t=0,X: the first tenth of the run
    const std::string zoomed = dump_dom(dir / "gantt.html", "900,700", fmt::format("#t=0,{:.3f}", time_ms / 10));
    // The label above the chart says which window is shown (numbers as the page prints them: 6 digits).
    CHECK(full.find(fmt::format("showing 0 \u2013 {:.6g} ms of {:.6g} ms", time_ms, time_ms)) != std::string::npos);
    const double to = std::stod(fmt::format("{:.3f}", time_ms / 10));
    CHECK(zoomed.find(fmt::format("showing 0 \u2013 {:.6g} ms of {:.6g} ms", to, time_ms)) != std::string::npos);
    const PageBars all = bars_in(full), part = bars_in(zoomed);
    int all_bars = 0, part_bars = 0;
    for (const auto& [lane, n] : all.covered) all_bars += n;
    for (const auto& [lane, n] : part.covered) part_bars += n;
    CHECK(part_bars < all_bars);  // only the activities in the window are drawn
    CHECK(part_bars > 0);
}

TEST_CASE("gantt chromium: the screenshot of a run is not blank and shows the lane colours", "[chromium]") {
    SKIP_WITHOUT_CHROMIUM();
    const fs::path dir = run_small_scenario("gantt_run_png");
    screenshot(dir / "gantt.html", dir / "gantt.png", "1400,620");
    REQUIRE(fs::exists(dir / "gantt.png"));
    const PixelStats stats = png_pixel_stats(slurp(dir / "gantt.png"));
    CHECK(stats.width == 1400);
    CHECK(stats.height == 620);
    CHECK(stats.distinct_colors >= 16);  // four lane colours, text anti-aliasing, grid, curves
    CHECK(stats.non_white_share > 0.05);
    CHECK(stats.non_white_share < 0.9);
    // Solid runs of each lane's colour (disk write #e15759, disk read #59a14f, stall #b07aa1,
    // GPU compute #4e79a7): thousands of pixels each for the long transfers and stalls of sync swapping.
    CHECK(stats.count(0xe15759) > 2000);
    CHECK(stats.count(0x59a14f) > 2000);
    CHECK(stats.count(0xb07aa1) > 2000);
    CHECK(stats.count(0x4e79a7) > 50);
}
