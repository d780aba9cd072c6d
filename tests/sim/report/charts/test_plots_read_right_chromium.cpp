// Plots that cannot be misread (issue 32, item 5), in headless Chromium: find's plots have
// no overprinted tick labels and ring its answer, its overhead plot draws every finished
// point; compare's plots show every run by its policy's label in ranking order (failures
// last) with the no-policy time drawn and the best ringed, and
// no series looks like the failure cross; a one-line ratio plot's legend names the ratio;
// the peak-ratio plot against the budget ratio draws y = x; disks swept as maps are
// named by their platform files, not raw specs; titles and axes use the keys' labels
// with their units; a narrow axis says it does not start at 0. Chromium is required.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <regex>

#include <fmt/format.h>

#include "chromium_support.h"
#include "file_support.h"
#include "sim/report/charts/svg_chart.h"

using namespace memsim;
using namespace memsim::test;
namespace fs = std::filesystem;

namespace {

// Overlapping texts, the tick labels (in order), the legend, the axis titles, how many
// series markers are crosses and how many failure crosses there are, the plot's share of
// the picture's height.
const char* const kReadProbe = R"JS(
const svg = document.querySelector("svg");
const found = textOverlaps(svg);
report("overlaps", found.length + (found.length ? ": " + found.slice(0, 3).join(" ; ") : ""));
report("ticks", Array.from(svg.querySelectorAll("text.tick-label")).map(t => t.textContent).join(" | "));
report("legend", Array.from(svg.querySelectorAll("g.legend-entry")).map(g =>
  Array.from(g.querySelectorAll("text")).map(t => t.textContent).join(" ")).join(" | "));
report("axes", Array.from(svg.querySelectorAll("text.axis-title")).map(t => t.textContent).join(" | "));
report("title", Array.from(svg.querySelectorAll("text.title")).map(t => t.textContent).join(" "));
report("series_crosses", svg.querySelectorAll('g.series [data-marker="cross"]').length);
report("failed", svg.querySelectorAll("path.failed").length);
report("marked", svg.querySelectorAll("circle.marked").length);
// Markers left to right: does the time rise (the screen y fall) from each to the next,
// and are the failure crosses right of every marker?
const centre = e => { const b = e.getBoundingClientRect(); return [b.x + b.width / 2, b.y + b.height / 2]; };
// The runs' markers; the optimal planner's bound (a series "... (bound)" under its plan,
// docs/optimal.md) is a lower limit, not a run, and is counted apart.
const markers = Array.from(svg.querySelectorAll('g.series:not([data-name$="(bound)"]) .marker')).map(centre).sort((a, b) => a[0] - b[0]);
report("bounds", svg.querySelectorAll('g.series[data-name$="(bound)"] .marker').length);
report("markers", markers.length);
report("rising", markers.every((m, i) => i === 0 || m[1] <= markers[i - 1][1] + 0.5) ? "yes" : "no");
const rightmost = markers.length ? markers[markers.length - 1][0] : -Infinity;
report("failures_last", Array.from(svg.querySelectorAll("path.failed")).every(f => centre(f)[0] > rightmost) ? "yes" : "no");
const frame = svg.querySelector("rect[fill='none']").getBoundingClientRect();
report("plot_share", (frame.height / svg.getBoundingClientRect().height).toFixed(2));
)JS";

std::string probe(const fs::path& svg_file) {
    const fs::path dir = svg_file.parent_path();
    const fs::path page = dir / (svg_file.stem().string() + ".html");
    std::ofstream(page) << "<!DOCTYPE html><html><body style=\"margin:0\">" << read_file(svg_file) << "</body></html>";
    return run_probe(page, std::string(kProbeHelpers) + kReadProbe, dir, "1200,1400");
}

std::string probe_text(const std::string& dom) {
    const std::size_t at = dom.find("<pre id=\"probe\">");
    return at == std::string::npos ? dom : dom.substr(at);
}

}  // namespace

TEST_CASE("plots read right chromium: find's plot has readable ticks in MB/s and rings the answer", "[chromium]") {
    const fs::path dir = fresh_dir("read_find");
    // The threshold scenarios/disk_speed_whatif.yaml's description asks for.
    const Outcome o = run_memsim("find scenarios/disk_speed_whatif.yaml --vary platform.disk.bandwidth --range 5MB/s..2GB/s "
                                 "--until 'time_ms <= 5056ms' -j 2 --out " + dir.string());
    INFO(o.out << o.err);
    REQUIRE(o.code == 0);
    std::smatch answer;
    REQUIRE(std::regex_search(o.out, answer, std::regex("answer: platform.disk.bandwidth = ([0-9.]+MB/s)")));
    const std::string dom = probe(dir / "plot_time_ms_vs_platform.disk.bandwidth.svg");
    INFO(probe_text(dom));
    // 17 points crowd near the answer: round-number ticks, none overprinted.
    CHECK(probe_value(dom, "overlaps") == "0");
    CHECK(probe_value(dom, "ticks") == "10 | 100 | 1000");
    CHECK(probe_value(dom, "axes") == "disk bandwidth (MB/s) (log scale) | iteration time (ms)");
    CHECK(probe_value(dom, "title") == "disk_speed_whatif: iteration time vs disk bandwidth");
    CHECK(probe_value(dom, "marked") == "1");
    // One line: the legend names it as the y axis does.
    CHECK_THAT(probe_value(dom, "legend"),
               Catch::StartsWith("iteration time (ms) | the answer: platform.disk.bandwidth = " + answer[1].str()));
    CHECK_THAT(probe_value(dom, "legend"), Catch::Contains("no memory policy: 4596.24 ms"));
    // The overhead plot: every point's own overhead (what the table prints and the
    // condition reads; no point of this sweep runs without a policy to divide by), the
    // answer ringed there too.
    const int finished = count_matches(read_file(dir / "results.csv"), std::regex("\n\\d{4},[^,\n]*,ok,"));
    REQUIRE(fs::exists(dir / "plot_overhead_vs_platform.disk.bandwidth.svg"));
    const std::string overhead = probe(dir / "plot_overhead_vs_platform.disk.bandwidth.svg");
    INFO(probe_text(overhead));
    CHECK(probe_value(overhead, "overlaps") == "0");
    CHECK(probe_value(overhead, "markers") == std::to_string(finished));
    CHECK(probe_value(overhead, "marked") == "1");
    CHECK_THAT(probe_value(overhead, "legend"), Catch::StartsWith("overhead (time / no-policy time) | the answer: "
                                                                  "platform.disk.bandwidth = " + answer[1].str()));
}

TEST_CASE("plots read right chromium: compare's plots rank the policies by label and use the cross only for failures",
          "[chromium]") {
    const fs::path dir = fresh_dir("read_compare");
    // ResNet-18 b2 at 70%: twelve policies fit, four run out of memory (constants are 36% of its peak).
    const Outcome o = run_memsim("compare scenarios/traced_resnet18_b2.yaml --set platform.memory.budget_ratio=0.7 -j 2 --out " +
                                 dir.string());
    INFO(o.out << o.err);
    REQUIRE(o.code == 0);
    CHECK_THAT(o.out, Catch::Contains("out of memory: constants (weights, inputs: tensors no eviction moves; a swap by role can, policy.swap.select: roles) are 36% of the "
                                      "no-policy peak"));
    std::vector<std::string> ranked;  // the policies as the table ranks them
    const std::regex row(R"(\n  (?:\d+|-) +(\S.*?\S) +(ok|oom|thrash|error) )");
    for (std::sregex_iterator it(o.out.begin(), o.out.end(), row), end; it != end; ++it) ranked.push_back((*it)[1]);
    REQUIRE(ranked.size() == 17);  // 16 policy families and the optimal planner
    const std::string time = probe(dir / "plot_time_ms_vs_policy.svg");
    INFO(probe_text(time));
    CHECK(probe_value(time, "overlaps") == "0");
    std::string ticks = probe_value(time, "ticks");
    for (const std::string& label : ranked) {  // in ranking order (a label may wrap: its start)
        const std::size_t at = ticks.find(label.substr(0, 10));
        INFO(label);
        REQUIRE(at != std::string::npos);
        ticks = ticks.substr(at + 1);
    }
    // Every run, not only each family's best, in ranking order: the time rises left to
    // right and the failures come last.
    CHECK(probe_value(time, "rising") == "yes");
    CHECK(probe_value(time, "failures_last") == "yes");
    CHECK(probe_value(time, "ticks").find("(same)") == std::string::npos);
    CHECK_THAT(probe_value(time, "legend"), Catch::Contains("the best: " + ranked.front()) &&
                                                Catch::Contains("no memory policy: 3146.09 ms"));
    CHECK(probe_value(time, "marked") == "1");
    // One cross per point without a result: the four families above (results.csv has every
    // run; the two async prefetch rules that also ran out of memory fit since a storage read
    // later through a view is swapped out and read back, docs/workloads.md).
    const int failed = count_matches(read_file(dir / "results.csv"), std::regex("\n\\d{4},[^\n]*,(oom|thrash|error),"));
    CHECK(failed == 4);
    CHECK(probe_value(time, "failed") == std::to_string(failed));
    CHECK(probe_value(time, "series_crosses") == "0");

    const std::string pareto = probe(dir / "plot_pareto_time_vs_peak.svg");
    INFO(probe_text(pareto));
    CHECK(probe_value(pareto, "overlaps") == "0");
    CHECK(probe_value(pareto, "series_crosses") == "0");  // 14 series: none drawn as a cross
    CHECK(probe_value(pareto, "failed") == std::to_string(failed));
    CHECK(probe_value(pareto, "marked") == "1");
    // Peak memory from 0: the policies' peaks, all within 2% of 88 MiB, do not pass for a trade-off.
    CHECK_THAT(probe_value(pareto, "ticks"), Catch::StartsWith("0 | 20 | 40"));
}

TEST_CASE("plots read right chromium: compare draws every run in ranking order, the variants a family's best stands for too",
          "[chromium]") {
    const fs::path dir = fresh_dir("read_compare_all");
    // The traced MobileNetV2 at 60%: all three async prefetch rules finish (the table shows
    // the best, prefetch budget, 11th), no policy and capuchin run out of memory.
    const Outcome o = run_memsim("compare scenarios/budget_tradeoff.yaml -j 2 --out " + dir.string());
    INFO(o.out << o.err);
    REQUIRE(o.code == 0);
    REQUIRE_THAT(o.out, Catch::Contains("async: the best of 3 prefetch rules"));
    const std::string csv = read_file(dir / "results.csv");
    const int failed = count_matches(csv, std::regex("\n\\d{4},[^\n]*,(oom|thrash|error),"));
    CHECK(failed == 2);
    for (const char* plot : {"plot_time_ms_vs_policy.svg", "plot_overhead_vs_policy.svg"}) {
        const std::string dom = probe(dir / plot);
        INFO(plot << probe_text(dom));
        CHECK(probe_value(dom, "markers") == "17");  // 19 runs (optimal's included), 2 without a result
        CHECK(probe_value(dom, "failed") == std::to_string(failed));
        CHECK(probe_value(dom, "rising") == "yes");
        CHECK(probe_value(dom, "failures_last") == "yes");
        CHECK(probe_value(dom, "overlaps") == "0");
        CHECK(probe_value(dom, "marked") == "1");
    }
}

TEST_CASE("plots read right chromium: a one-line ratio plot names the ratio and the peak ratio against the budget draws y = x",
          "[chromium]") {
    const fs::path dir = fresh_dir("read_ratio");
    std::ofstream(dir / "ratio.yaml") << "name: ratio\n"
                                         "workload: {dtr_log: examples/traced/mobilenet_v2_b8.log}\n"
                                         "policy: {allocator: os, recompute: {heuristic: dtr}}\n"
                                         "platform: {memory: {budget_ratio: 1.0}}\n"
                                         "sweep: {platform.memory.budget_ratio: [0.6, 0.8, 1.0]}\n";
    const Outcome o = run_memsim("sweep " + (dir / "ratio.yaml").string() + " -j 2 --out " + (dir / "out").string());
    INFO(o.out << o.err);
    REQUIRE(o.code == 0);
    const std::string overhead = probe(dir / "out" / "plot_overhead_vs_platform.memory.budget_ratio.svg");
    INFO(probe_text(overhead));
    CHECK_THAT(probe_value(overhead, "legend"), Catch::StartsWith("overhead (time / no-policy time) | no policy (ratio 1)"));
    CHECK(probe_value(overhead, "title") == "ratio: overhead vs budget ratio (of the no-policy peak)");
    const std::string svg = read_file(dir / "out" / "plot_peak_ratio_vs_platform.memory.budget_ratio.svg");
    CHECK(count_matches(svg, std::regex("class=\"identity\"")) == 1);
    const std::string peak = probe(dir / "out" / "plot_peak_ratio_vs_platform.memory.budget_ratio.svg");
    INFO(probe_text(peak));
    CHECK_THAT(probe_value(peak, "legend"),
               Catch::StartsWith("peak / no-policy peak | no policy (ratio 1) | y = x: the peak at the budget"));
    CHECK(probe_value(peak, "overlaps") == "0");
}

TEST_CASE("plots read right chromium: disks swept as maps are named by their platform files and leave room for the plot",
          "[chromium]") {
    const fs::path dir = fresh_dir("read_disks");
    // The shipped scenario's sweep without its 20% budget, where dtr's four points thrash
    // until they run out of memory (1.5 s each here, a minute under the sanitizers): the
    // same disk axis, with 9 series instead of 12.
    const Outcome o = run_memsim(
        "sweep scenarios/swap_vs_recompute.yaml -j 2 --out " + dir.string() +
        " --set 'sweep={platform.disk: [{bandwidth: 104094472B/4.452s}, {write_bandwidth: 315.22MiB/s, read_bandwidth: "
        "797.91MiB/s}, {bandwidth: 3.2GB/s, read_latency: 12us, write_latency: 16us}, {bandwidth: 25GB/s, latency: 10us}], "
        "policy: [{allocator: os, swap: {mode: async, select: budget}}, {allocator: os, recompute: {heuristic: dtr}}, "
        "{allocator: os, hybrid: true, swap: {mode: async}, recompute: {heuristic: dtr}}], platform.memory.budget_ratio: "
        "[0.4, 0.5, 0.7]}'");
    INFO(o.out << o.err);
    REQUIRE(o.code == 0);
    const std::string dom = probe(dir / "plot_time_ms_vs_platform.disk.svg");
    INFO(probe_text(dom));
    // The four disks of configs/ (phone, phone_samsung, nvme_datacenter, host_ram_pcie4),
    // wrapped where they break: "phone_ samsung:" is one label on two lines.
    CHECK(probe_value(dom, "ticks") ==
          "phone: 23.4 | MB/s | phone_ | samsung: | write 331 | MB/s, read | 837 MB/s | nvme_ | datacenter: | 3.2 GB/s | "
          "host_ram_ | pcie4: 25 GB/s");
    CHECK(probe_value(dom, "overlaps") == "0");
    CHECK(probe_value(dom, "axes") == "disk | iteration time (ms)");
    // The plot, not its tick labels, takes most of the picture.
    CHECK(std::stod(probe_value(dom, "plot_share")) >= 0.6);
}

TEST_CASE("plots read right: a narrow axis that does not start at 0 says so") {
    Chart chart;
    chart.title = "narrow";
    chart.x.label = "x";
    chart.y.label = "peak memory (MiB)";
    chart.y.unit_scale = 1048576.0;
    // 28.6 to 29.0 MiB: a 1.4% span.
    chart.series.push_back({"a", {{1, 28.6 * 1048576, "a"}, {2, 29.0 * 1048576, "b"}}, true});
    CHECK_THAT(render_svg(chart), Catch::Contains(">peak memory (MiB), not from 0: 28.6 to 29 (a 1.4% span)</text>"));
    chart.y.include_zero = true;
    const std::string from_zero = render_svg(chart);
    CHECK_THAT(from_zero, !Catch::Contains("not from 0"));
    CHECK(std::regex_search(from_zero, std::regex(R"(class="y-tick"[^>]*>0</text>)")));
}
