// gantt.html of the hand-made journey run (output_fixtures.h) in headless Chromium:
// the eviction, the cancelled write and the drop are markers on their own lanes and
// counted in the header; hovering a bar or a marker says what it moves, waits for or
// recomputes and highlights that tensor's journey; memory by kind is a stacked area
// with its legend; the header lists the settings. Without Chromium they skip, loudly (chromium_support.h).
#include <catch2/catch.hpp>

#include <filesystem>
#include <regex>

#include <fmt/format.h>

#include "chromium_support.h"
#include "file_support.h"
#include "output_fixtures.h"
#include "sim/report/gantt_html.h"

using namespace memsim;
using namespace memsim::test;
namespace fs = std::filesystem;

namespace {

fs::path journey_page(const std::string& name) {
    const fs::path dir = fresh_dir(name);
    const Workload w = journey_workload();
    Summary summary;
    summary.time_ms = 11;
    RunHeader header{"journey: os, budget 12000 B, dtr", {{"workload", "journey, batch 1"}, {"allocator", "os"}}};
    write_gantt_html(journey_log(), summary, header, &w, (dir / "gantt.html").string());
    return dir;
}

// Hovers the first element matching each selector and reports the tooltip and how many
// bars and markers are highlighted.
const char* const kHoverProbe = R"JS(
const svg = document.getElementById("chart"), tip = document.getElementById("tooltip");
function hover(key, selector) {
  const e = svg.querySelector(selector);
  if (!e) { report(key, "missing"); return; }
  const r = e.getBoundingClientRect();
  e.dispatchEvent(new MouseEvent("mousemove", {bubbles: true, clientX: r.left + r.width / 2, clientY: r.top + r.height / 2}));
  report(key, tip.textContent.split("\n")[0]);
  report(key + "-journey", tip.textContent.split("\n").filter(l => l.startsWith("tensor ")).join(" / "));
  report(key + "-hl", svg.querySelectorAll(".bar.hl").length + " bars " + svg.querySelectorAll(".mark.hl").length + " marks");
}
hover("write", 'rect.bar[data-lane="disk_write"]');
hover("read", 'rect.bar[data-lane="disk_read"]');
hover("stall", 'rect.bar[data-lane="stall"]');
hover("recompute", 'rect.bar[data-lane="recompute"]');
hover("evict", 'path.mark[data-kind="evict_to_disk"]');
hover("drop", 'path.mark[data-kind="drop"]');
hover("cancel", 'path.mark[data-kind="cancel_write"]');
svg.dispatchEvent(new MouseEvent("mouseleave", {}));
report("after-leave", svg.querySelectorAll(".hl").length + " highlighted, focus " + svg.classList.contains("focus"));
const panel = svg.querySelector("g.memory rect").getBoundingClientRect();
const plot = document.querySelector("#plot-area rect");
const x0 = +plot.getAttribute("x"), w = +plot.getAttribute("width"), left = svg.getBoundingClientRect().left;
// t = 2.5 ms of 11 ms
panel && svg.dispatchEvent(new MouseEvent("mousemove", {bubbles: true, clientX: left + x0 + w * 2.5 / 11, clientY: panel.top + panel.height / 2}));
report("memory", tip.textContent.split("\n").slice(3).map(l => l.trim()).join(" / "));
report("overlaps", textOverlaps(svg).length + " " + textOverlaps(svg).slice(0, 3).join(" ; "));
)JS";

}  // namespace

TEST_CASE("gantt chromium: evictions, drops and cancelled writes are markers on their lanes, counted in the header", "[chromium]") {
    SKIP_WITHOUT_CHROMIUM();
    const fs::path dir = journey_page("gantt_marks_dom");
    const std::string dom = dump_dom(dir / "gantt.html");
    INFO(dom.substr(0, 3000));
    for (const char* kind : {"evict_to_disk", "drop", "cancel_write"}) {
        INFO(kind);
        CHECK(count_matches(dom, std::regex(fmt::format("<g class=\"mark-lane\" data-kind=\"{}\"", kind))) == 1);
        CHECK(count_matches(dom, std::regex(fmt::format("data-kind=\"{}\"[^>]*class=\"mark\"", kind))) == 1);
    }
    CHECK(count_matches(dom, std::regex("class=\"mark\"")) == 3);
    CHECK(dom.find("<span class=\"mark-count\" data-kind=\"evict_to_disk\">evictions to disk <b>1</b></span>") != std::string::npos);
    CHECK(dom.find("<span class=\"mark-count\" data-kind=\"drop\">drops <b>1</b></span>") != std::string::npos);
    CHECK(dom.find("<span class=\"mark-count\" data-kind=\"cancel_write\">cancelled writes <b>1</b></span>") != std::string::npos);
    // Memory by kind: all six kinds occur in this run, each an area with a legend entry.
    CHECK(count_matches(dom, std::regex("class=\"kind-area\"")) == 6);
    for (const char* kind : {"weights / inputs", "activations", "gradients", "scratch", "swapping out", "swapping in"}) {
        INFO(kind);
        CHECK(count_matches(dom, std::regex(fmt::format("class=\"memory-legend-item\" data-item=\"{}\"", kind))) == 1);
    }
    CHECK(count_matches(dom, std::regex("class=\"memory-legend-item\" data-item=\"(in-use|live|budget)\"")) == 3);
    // The header: the title and the settings.
    CHECK(dom.find("<h1>memsim: journey: os, budget 12000 B, dtr</h1>") != std::string::npos);
    CHECK(dom.find("<span><i>allocator</i> <b>os</b></span>") != std::string::npos);
}

TEST_CASE("gantt chromium: hovering says what a bar moves or waits for and highlights the tensor's journey", "[chromium]") {
    SKIP_WITHOUT_CHROMIUM();
    const fs::path dir = journey_page("gantt_marks_hover");
    const std::string dom = run_probe(dir / "gantt.html", std::string(kProbeHelpers) + kHoverProbe, dir);
    INFO(dom.substr(dom.find("<pre id=\"probe\">") == std::string::npos ? 0 : dom.find("<pre id=\"probe\">")));
    CHECK(probe_value(dom, "write") == "swap out tensor a1 (3.91 KiB)");
    CHECK(probe_value(dom, "read") == "swap in tensor a1 (3.91 KiB)");
    CHECK(probe_value(dom, "stall") == "wait for tensor a1 (swap-in)");
    CHECK(probe_value(dom, "recompute") == "recompute op 1 (relu) for tensor a2");
    CHECK(probe_value(dom, "evict") == "evict tensor a1 (3.91 KiB) to disk");
    CHECK(probe_value(dom, "drop") == "drop tensor a2 (3.91 KiB): recomputed when needed");
    CHECK(probe_value(dom, "cancel") == "cancel the swap-out of tensor a2 (3.91 KiB): needed again first");
    // a1's journey: produced by conv, written, waited for, read; one eviction marker.
    CHECK(probe_value(dom, "write-hl") == "4 bars 1 marks");
    CHECK(probe_value(dom, "write-journey") ==
          "tensor a1 (output of op 0 conv): written at 2 ms; read at 5.5 ms; 1 stall(s), 2 ms; evicted, written out at 2 ms");
    // a2's journey: produced by relu, recomputed; its cancelled write and its drop.
    CHECK(probe_value(dom, "recompute-hl") == "2 bars 2 marks");
    CHECK(probe_value(dom, "drop-hl") == "2 bars 2 marks");
    CHECK(probe_value(dom, "after-leave") == "0 highlighted, focus false");
    // At 2.5 ms: w and x, a2, tmp, and a1 on its way to disk.
    CHECK(probe_value(dom, "memory") ==
          "weights / inputs 2.93 KiB / activations 3.91 KiB / scratch 500 B / swapping out 3.91 KiB");
    CHECK(probe_value(dom, "overlaps") == "0 ");
}
