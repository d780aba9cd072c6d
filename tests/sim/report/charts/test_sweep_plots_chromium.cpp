// Sweep plots in headless Chromium: 14 series get 14 distinct styles (colour, marker,
// dash); legend entries and category labels are wrapped, never cut (each text's
// rendered width fits inside the picture, and the full names are on the page); no two
// texts overlap; categories are not joined by lines; the Pareto plot merges points that
// several policies share into one labelled marker. Without Chromium they skip, loudly (chromium_support.h).
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>

#include <sys/wait.h>

#include <fmt/format.h>

#include "chromium_support.h"
#include "file_support.h"
#include "sim/report/charts/svg_chart.h"

using namespace memsim;
using namespace memsim::test;
namespace fs = std::filesystem;

namespace {

// Per series its rendered style (fill or stroke of the marker, marker kind, dash of the line);
// per legend or tick text whether it fits inside the <svg>.
const char* const kPlotProbe = R"JS(
const svg = document.querySelector("svg");
const box = svg.getBoundingClientRect();
const styles = new Set();
svg.querySelectorAll("g.series").forEach(g => {
  const m = g.querySelector(".marker"), line = g.querySelector("path:not(.marker)");
  if (!m) return;  // every point of it drawn as a shared ring
  const colour = m.getAttribute("fill") !== "none" ? m.getAttribute("fill") : m.getAttribute("stroke");
  styles.add(colour + " " + m.getAttribute("data-marker") + " " + (line ? line.getAttribute("stroke-dasharray") || "solid" : "-"));
});
report("series", svg.querySelectorAll("g.series").length);
report("styles", styles.size);
let outside = 0, texts = 0;
svg.querySelectorAll("text").forEach(t => {
  texts++;
  const r = t.getBoundingClientRect();
  if (r.left < box.left - 0.5 || r.right > box.right + 0.5 || r.top < box.top - 0.5 || r.bottom > box.bottom + 0.5) outside++;
});
report("outside", outside + " of " + texts);
report("legend", Array.from(svg.querySelectorAll("g.legend-entry")).map(g =>
  Array.from(g.querySelectorAll("text")).map(t => t.textContent).join(" ")).join(" | "));
report("ticks", Array.from(svg.querySelectorAll("text.tick-label")).map(t => t.textContent).join(" | "));
const found = textOverlaps(svg);
report("overlaps", found.length + (found.length ? ": " + found.slice(0, 3).join(" ; ") : ""));
report("lines", svg.querySelectorAll("g.series > path:not(.marker)").length);
report("shared", Array.from(svg.querySelectorAll("g.shared-point")).map(g => g.getAttribute("data-count")).join(","));
)JS";

std::string probe_svg(const fs::path& dir, const std::string& svg) {
    std::ofstream(dir / "plot.html") << "<!DOCTYPE html><html><body style=\"margin:0\">" << svg << "</body></html>";
    return run_probe(dir / "plot.html", std::string(kProbeHelpers) + kPlotProbe, dir, "1200,1400");
}

std::string series_name(int i) {
    // Long names on purpose: they must wrap, not be cut.
    return fmt::format("allocator=os, heuristic=variant_{}_with_a_long_name, budget_ratio=0.{}", i, i % 10);
}

}  // namespace

TEST_CASE("sweep plot chromium: 14 series have 14 distinct styles and whole legends", "[chromium]") {
    SKIP_WITHOUT_CHROMIUM();
    Chart chart;
    chart.title = "14 series";
    chart.x.label = "x";
    chart.y.label = "y";
    for (int i = 0; i < 14; ++i) {
        ChartSeries s{series_name(i), {}, true};
        for (int x = 1; x <= 4; ++x) s.points.push_back({double(x), 10.0 + i + x, "tip"});
        chart.series.push_back(s);
    }
    const fs::path dir = fresh_dir("sweep_plot_14");
    const std::string dom = probe_svg(dir, render_svg(chart));
    INFO(dom.substr(dom.find("<pre id=\"probe\">") == std::string::npos ? 0 : dom.find("<pre id=\"probe\">")));
    CHECK(probe_value(dom, "series") == "14");
    CHECK(probe_value(dom, "styles") == "14");
    CHECK_THAT(probe_value(dom, "outside"), Catch::StartsWith("0 of "));
    CHECK(probe_value(dom, "overlaps") == "0");
    // Every legend entry holds its whole name (wrapped lines joined by a space).
    const std::string legend = probe_value(dom, "legend");
    for (int i = 0; i < 14; ++i) {
        INFO(series_name(i));
        std::string words = series_name(i);
        std::string flattened = legend;
        words.erase(std::remove(words.begin(), words.end(), ' '), words.end());
        flattened.erase(std::remove(flattened.begin(), flattened.end(), ' '), flattened.end());
        CHECK(flattened.find(words) != std::string::npos);
    }
    CHECK(legend.find("\u2026") == std::string::npos);  // no ellipsis anywhere
}

TEST_CASE("sweep plot chromium: categories are whole and not joined by lines and a wide y span is on a log axis", "[chromium]") {
    SKIP_WITHOUT_CHROMIUM();
    Chart chart;
    chart.title = "categories";
    chart.x.categorical = true;
    chart.x.label = "policy.swap.prefetch";
    chart.y.label = "time";
    const std::vector<std::string> categories = {"lead_ops:0", "lead_ops:10", "eager", "just_in_time",
                                                 "heuristic=dtr_with_a_long_variant_name selection=budget"};
    for (std::size_t i = 0; i < categories.size(); ++i) chart.x.ticks.emplace_back(double(i), categories[i]);
    ChartSeries s{"time_ms", {}, false};
    for (std::size_t i = 0; i < categories.size(); ++i) s.points.push_back({double(i), i == 0 ? 1.0 : 100.0 * double(i), "tip"});
    chart.series.push_back(s);
    const std::string svg = render_svg(chart);
    CHECK(svg.find("(log scale)") != std::string::npos);  // 1 to 400: a log y axis
    const fs::path dir = fresh_dir("sweep_plot_categories");
    const std::string dom = probe_svg(dir, svg);
    INFO(dom.substr(dom.find("<pre id=\"probe\">") == std::string::npos ? 0 : dom.find("<pre id=\"probe\">")));
    CHECK(probe_value(dom, "lines") == "0");
    CHECK_THAT(probe_value(dom, "outside"), Catch::StartsWith("0 of "));
    CHECK(probe_value(dom, "overlaps") == "0");
    // A label may wrap (after a space, ',', '=', '/' or '_'): its lines, joined, give it whole.
    std::string ticks = probe_value(dom, "ticks");
    ticks.erase(std::remove_if(ticks.begin(), ticks.end(), [](char ch) { return ch == ' ' || ch == '|'; }), ticks.end());
    for (std::string c : categories) {
        c.erase(std::remove(c.begin(), c.end(), ' '), c.end());
        CHECK(ticks.find(c) != std::string::npos);
    }
}

TEST_CASE("sweep plot chromium: the Pareto plot of budget_tradeoff merges shared points and draws ratios to no policy", "[chromium]") {
    SKIP_WITHOUT_CHROMIUM();
    const fs::path dir = fresh_dir("sweep_plot_pareto");
    const Outcome o = run_memsim("sweep scenarios/budget_tradeoff.yaml -j 2 --out " + dir.string());
    INFO(o.out << o.err);
    REQUIRE(o.code == 0);
    REQUIRE(fs::exists(dir / "plot_pareto_time_vs_peak.svg"));
    const std::string dom = probe_svg(dir, read_file(dir / "plot_pareto_time_vs_peak.svg"));
    INFO(dom.substr(dom.find("<pre id=\"probe\">") == std::string::npos ? 0 : dom.find("<pre id=\"probe\">")));
    // At budget_ratio 1.0 the four policies do nothing: one point, one marker for all four.
    CHECK_THAT(probe_value(dom, "shared"), Catch::Contains("4"));
    // Its legend entry names all four policies.
    CHECK_THAT(probe_value(dom, "legend"), Catch::Contains("shared by mode=async select=budget prefetch=just_in_time; heuristic=dtr;"));
    // On the traced MobileNetV2 every point fits its budget: no cross on the edge.
    CHECK(count_matches(read_file(dir / "plot_pareto_time_vs_peak.svg"), std::regex("class=\"failed\"")) == 0);
    CHECK(probe_value(dom, "overlaps") == "0");
    CHECK_THAT(probe_value(dom, "outside"), Catch::StartsWith("0 of "));
    // The ratio plots exist (the sweep has no-policy points) with the line at 1.
    for (const char* plot : {"plot_overhead_vs_platform.memory.budget_ratio.svg", "plot_peak_ratio_vs_platform.memory.budget_ratio.svg"}) {
        INFO(plot);
        REQUIRE(fs::exists(dir / plot));
        CHECK(count_matches(read_file(dir / plot), std::regex("class=\"reference\"")) == 1);
    }
}

TEST_CASE("scripts/plots_to_png.sh: a browser that ends without answering is an error and leaves no PNG") {
    const fs::path dir = fresh_dir("sweep_plot_png_fails");
    Chart chart;
    chart.title = "png";
    chart.series.push_back({"one", {{1, 2, "a"}, {2, 3, "b"}}, true});
    std::ofstream(dir / "plot_one.svg") << render_svg(chart);
    const int status = std::system(
        fmt::format("CHROMIUM=/bin/false scripts/plots_to_png.sh '{}' >'{}' 2>&1", dir.string(), (dir / "log.txt").string())
            .c_str());
    const std::string log = read_file(dir / "log.txt");
    INFO(log);
    CHECK(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 1);
    CHECK(log == "plots_to_png.sh: Chromium could not render the plots: Chromium closed its DevTools pipe\n");
    CHECK_FALSE(fs::exists(dir / "plot_one.png"));
}

TEST_CASE("sweep plot chromium: scripts/plots_to_png.sh renders every plot at twice its size", "[chromium]") {
    SKIP_WITHOUT_CHROMIUM();
    const fs::path dir = fresh_dir("sweep_plot_png");
    Chart chart;
    chart.title = "png";
    chart.series.push_back({"one", {{1, 2, "a"}, {2, 3, "b"}}, true});
    const std::string svg = render_svg(chart);
    std::ofstream(dir / "plot_one.svg") << svg;
    std::ofstream(dir / "plot_two.svg") << svg;
    std::smatch size;
    REQUIRE(std::regex_search(svg, size, std::regex("width=\"(\\d+)\" height=\"(\\d+)\"")));
    const int status = std::system(fmt::format("scripts/plots_to_png.sh '{}' 2 >'{}' 2>&1", dir.string(), (dir / "log.txt").string()).c_str());
    INFO(read_file(dir / "log.txt"));
    REQUIRE(status == 0);
    for (const char* png : {"plot_one.png", "plot_two.png"}) {
        INFO(png);
        REQUIRE(fs::exists(dir / png));
        const PixelStats stats = png_pixel_stats(slurp(dir / png));
        CHECK(stats.width == 2 * static_cast<std::uint32_t>(std::stoi(size[1])));
        CHECK(stats.height == 2 * static_cast<std::uint32_t>(std::stoi(size[2])));
        CHECK(stats.count(0x4e79a7) > 100);  // the series' colour: the line and markers are drawn
    }
}
