// gantt.html in a real browser: headless Chromium renders the page (a screenshot
// that is not blank) and dumps the DOM after the script ran (each lane, one bar per
// activity for a small log; merged bars for a large one; tooltips, zoom, pan and
// reset driven by synthetic mouse events). Without
// /usr/bin/chromium they skip, loudly, and say how to install it (chromium_support.h).
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include <fmt/format.h>

#include "sim/report/gantt_html.h"
#include "chromium_support.h"
#include "file_support.h"

using namespace memsim;
using namespace memsim::test;
namespace fs = std::filesystem;

namespace {

EventLog small_log() {
    EventLog log;
    log.add({lane::kCompute, 0.0, 2.0, 0, "conv1", {1, 2}, 4096});
    log.add({lane::kCompute, 2.0, 5.0, 1, "relu1", {2, 3}, 4096});
    log.add(swap_activity(kDiskTier, true, 2.0, 4.0, 0, "t2", {2}, 4096));
    log.add({lane::kStall, 5.0, 6.0, 2, "waiting for a swap-in", {2}, 0});
    log.add(swap_activity(kDiskTier, false, 4.5, 6.0, 2, "t2", {2}, 4096));
    log.add({lane::kCompute, 6.0, 8.0, 2, "relu1_grad", {2, 3}, 4096});
    log.add({lane::kRecompute, 8.0, 9.0, 3, "conv1 (again)", {2}, 4096});
    log.add({lane::kCompute, 9.0, 10.0, 3, "conv1_grad", {1, 2}, 4096});
    log.sample(0.0, 8192, 8192, 8192);
    log.sample(2.0, 12288, 12288, 12288);
    log.sample(4.0, 8192, 8192, 8192);
    log.sample(6.0, 12288, 12288, 12288);
    log.sample(10.0, 0, 0, 0);
    log.budget_bytes = 16384;
    log.forward_end_ms = 5.0;
    return log;
}

}  // namespace

TEST_CASE("gantt.html in headless Chromium: each lane and one bar per activity", "[chromium]") {
    SKIP_WITHOUT_CHROMIUM();
    const fs::path dir = fresh_dir("memsim_test_gantt_dom");
    Summary summary;
    summary.scenario = "small";
    summary.time_ms = 10.0;
    write_gantt_html(small_log(), summary, "small <scenario>", (dir / "gantt.html").string());
    const std::string dom = dump_dom(dir / "gantt.html");
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

TEST_CASE("gantt.html in headless Chromium: the screenshot is not blank", "[chromium]") {
    SKIP_WITHOUT_CHROMIUM();
    const fs::path dir = fresh_dir("memsim_test_gantt_png");
    write_gantt_html(small_log(), Summary{}, "small", (dir / "gantt.html").string());
    screenshot(dir / "gantt.html", dir / "gantt.png");
    REQUIRE(fs::exists(dir / "gantt.png"));
    const PixelStats stats = png_pixel_stats(slurp(dir / "gantt.png"));
    CHECK(stats.distinct_colors >= 8);       // lane colours, text, curve
    CHECK(stats.non_white_share > 0.01);     // something is drawn
    CHECK(stats.non_white_share < 0.9);      // and it is not an error page
}

TEST_CASE("gantt.html stays small for 4k operators and 10k I/Os: sub-pixel bars are merged", "[chromium]") {
    SKIP_WITHOUT_CHROMIUM();
    EventLog log;
    double t = 0;
    for (int op = 0; op < 4000; ++op) {
        log.add({lane::kCompute, t, t + 0.5, op, fmt::format("op{}", op), {op}, 1000});
        for (int k = 0; k < 5 && op * 5 / 2 + k < 10000 && op % 2 == 0; ++k)
            log.add(swap_activity(kDiskTier, k % 2 == 0, t + 0.1 * k, t + 0.1 * k + 0.08, op, fmt::format("io{}", k), {op}, 512));
        log.sample(t, 1000ULL * (op % 100), 900ULL * (op % 100), 1000ULL * (op % 100));
        t += 0.5;
    }
    log.forward_end_ms = t / 2;
    const fs::path dir = fresh_dir("memsim_test_gantt_large");
    write_gantt_html(log, Summary{}, "large", (dir / "gantt.html").string());
    CHECK(fs::file_size(dir / "gantt.html") < 3'000'000);
    const std::string dom = dump_dom(dir / "gantt.html");
    const int bars = count_matches(dom, std::regex("class=\"bar\"")), merged = count_matches(dom, std::regex("class=\"agg\""));
    CHECK(merged > 0);
    CHECK(bars + merged < 5000);  // at most a few rectangles per pixel column and lane, not 14k hairlines
    for (const char* lane : {"compute", "disk_write", "disk_read"})
        CHECK(count_matches(dom, std::regex(fmt::format("<g class=\"lane\" data-lane=\"{}\"", lane))) == 1);
}

namespace {

// Appended to a copy of gantt.html: plays the user (hover a bar, hover the memory panel,
// wheel, drag, double-click) and writes what the page showed into <pre id="probe">.
const char* const kProbeScript = R"JS(
<script>
(function () {
  const svg = document.getElementById("chart"), tip = document.getElementById("tooltip");
  const label = () => document.getElementById("window").textContent;
  const lines = [];
  const centre = e => { const r = e.getBoundingClientRect(); return {x: r.left + r.width / 2, y: r.top + r.height / 2}; };
  const move = (target, p) => target.dispatchEvent(new MouseEvent("mousemove", {bubbles: true, clientX: p.x, clientY: p.y}));
  const bar = svg.querySelector('rect.bar[data-lane="disk_write"]');
  move(bar, centre(bar));
  lines.push("bar tip [" + tip.style.display + "] " + tip.textContent.replace(/\n/g, " | "));
  const panel = svg.querySelector("g.memory rect");
  const pr = panel.getBoundingClientRect();
  move(panel, {x: pr.left + pr.width * 0.25, y: pr.top + pr.height / 2});  // t = 2.5 ms
  lines.push("memory tip " + tip.textContent.replace(/\n/g, " | "));
  lines.push("start " + label());
  const c = centre(panel);
  svg.dispatchEvent(new WheelEvent("wheel", {bubbles: true, cancelable: true, deltaY: -100, clientX: c.x, clientY: c.y}));
  lines.push("wheel " + label());
  svg.dispatchEvent(new MouseEvent("mousedown", {bubbles: true, clientX: c.x, clientY: c.y}));
  window.dispatchEvent(new MouseEvent("mousemove", {clientX: c.x - 200, clientY: c.y}));
  window.dispatchEvent(new MouseEvent("mouseup", {clientX: c.x - 200, clientY: c.y}));
  lines.push("drag " + label());
  svg.dispatchEvent(new MouseEvent("dblclick", {bubbles: true}));
  lines.push("dblclick " + label());
  const pre = document.createElement("pre");
  pre.id = "probe";
  pre.textContent = lines.join("\n");
  document.body.appendChild(pre);
})();
</script>
)JS";

// The line of the probe's output that starts with `key`.
std::string probe_line(const std::string& dom, const std::string& key) {
    const std::size_t from = dom.find("<pre id=\"probe\">");
    REQUIRE(from != std::string::npos);
    std::istringstream in(dom.substr(from + 16, dom.find("</pre>", from) - from - 16));
    for (std::string line; std::getline(in, line);)
        if (line.rfind(key + " ", 0) == 0) return line;
    FAIL("no probe line " << key);
    return {};
}

}  // namespace

TEST_CASE("gantt.html in headless Chromium: hover tooltips, wheel zoom, drag pan, double-click reset", "[chromium]") {
    SKIP_WITHOUT_CHROMIUM();
    const fs::path dir = fresh_dir("memsim_test_gantt_interact");
    Summary summary;
    write_gantt_html(small_log(), summary, "small", (dir / "gantt.html").string());
    std::string page = slurp(dir / "gantt.html");
    page.insert(page.rfind("</body>"), kProbeScript);
    std::ofstream(dir / "probe.html") << page;
    const std::string dom = dump_dom(dir / "probe.html");
    REQUIRE(dom.find("<pre id=\"probe\">") != std::string::npos);
    INFO(dom.substr(dom.find("<pre id=\"probe\">")));
    // The disk write bar: its label, lane, operator, tensors, bytes, start and duration, and
    // the tensor's journey (without the workload the tooltip names it by id).
    CHECK(probe_line(dom, "bar tip") ==
          "bar tip [block] swap out tensor t2 (4.00 KiB) | disk write   op 0 | tensors 2 | 4.00 KiB (4096 B) | "
          "start 2 ms   duration 2 ms | tensor #2: written at 2 ms; read at 4.5 ms; 1 stall(s), 1 ms; recomputed 1x");
    // The memory panel at 2.5 ms: the sample taken at 2 ms.
    CHECK_THAT(probe_line(dom, "memory tip"), Catch::StartsWith("memory tip t = 2.5") &&
                                                  Catch::EndsWith("in use 12.00 KiB | live 12.00 KiB"));
    CHECK(probe_line(dom, "start") == "start showing 0 \u2013 10 ms of 10 ms");
    // Wheel up zooms in by 1.25 around the pointer (the middle): 1 ms off each side.
    CHECK(probe_line(dom, "wheel") == "wheel showing 1 ms \u2013 9 ms of 10 ms");
    // Dragging 200 px (over 1 ms here) to the left moves the window later; it stays 8 ms wide
    // and stops at the end of the run.
    CHECK(probe_line(dom, "drag") == "drag showing 2 ms \u2013 10 ms of 10 ms");
    CHECK(probe_line(dom, "dblclick") == "dblclick showing 0 \u2013 10 ms of 10 ms");
}

TEST_CASE("gantt.html with memory by kind stays one readable file for 10k operators and 10k I/Os", "[chromium]") {
    SKIP_WITHOUT_CHROMIUM();
    // 10,000 operators each producing one tensor (the first half forward); every other one
    // is written out and read back: 10,000 I/Os, 20,000+ residency changes.
    constexpr int kOps = 10000;
    Workload w;
    w.name = "large";
    w.forward_end = kOps / 2;
    EventLog log;
    double t = 0;
    for (int op = 0; op < kOps; ++op) {
        w.tensors.push_back({fmt::format("t{}", op), 1000, op});
        w.ops.push_back({fmt::format("op{}", op), 0.5, {}, {op}, {}, {}, {}});
        log.resident(t, op, true);
        log.add({lane::kCompute, t, t + 0.5, op, w.ops.back().name, {op}, 0});
        if (op % 2 == 0) {
            log.add(swap_activity(kDiskTier, true, t + 0.1, t + 0.2, op, w.tensors.back().name, {op}, 1000));
            log.resident(t + 0.2, op, false);
            log.resident(t + 0.3, op, true);
            log.add(swap_activity(kDiskTier, false, t + 0.3, t + 0.4, op, w.tensors.back().name, {op}, 1000));
        }
        if (op >= 100) log.resident(t + 0.45, op - 100, false);
        log.sample(t, 100000, 100000, 100000);
        t += 0.5;
    }
    log.forward_end_ms = t / 2;
    const fs::path dir = fresh_dir("memsim_test_gantt_large_kinds");
    write_gantt_html(log, Summary{}, RunHeader{"large", {}}, &w, (dir / "gantt.html").string());
    CHECK(fs::file_size(dir / "gantt.html") < 4'000'000);
    const std::string dom = dump_dom(dir / "gantt.html");
    CHECK(count_matches(dom, std::regex("class=\"kind-area\"")) == 4);  // activations, gradients, to disk, from disk
    const int bars = count_matches(dom, std::regex("class=\"bar\"")), merged = count_matches(dom, std::regex("class=\"agg\""));
    CHECK(merged > 0);
    CHECK(bars + merged < 6000);
}
