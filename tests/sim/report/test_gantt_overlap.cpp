// gantt.html of the shipped scenarios in headless Chromium: no two text boxes overlap
// (bounding boxes from the DOM) at the default view and at several zoom levels, and
// labels inside bars stay inside their bars. Without Chromium they skip, loudly (chromium_support.h).
#include <catch2/catch.hpp>

#include <filesystem>

#include <fmt/format.h>

#include "chromium_support.h"
#include "file_support.h"

using namespace memsim::test;
namespace fs = std::filesystem;

namespace {

// Checks the view, zooms in three times by the button (1.5x each), checks, zooms in
// eight more times around the forward/backward boundary, checks.
const char* const kOverlapProbe = R"JS(
const svg = document.getElementById("chart");
function check(key) {
  const found = textOverlaps(document.body);
  report(key, found.length + (found.length ? ": " + found.slice(0, 4).join(" ; ") : ""));
  let outside = 0;
  svg.querySelectorAll("text.bar-label").forEach(t => {
    const r = t.getBoundingClientRect();
    const bar = document.elementsFromPoint(r.left + 1, r.top + r.height / 2).find(e => e.classList && e.classList.contains("bar"));
    if (!bar || bar.getBoundingClientRect().right < r.right) outside++;
  });
  report(key + "-labels", svg.querySelectorAll("text.bar-label").length + " outside " + outside);
}
check("default");
for (let i = 0; i < 3; i++) document.getElementById("zoom-in").click();
check("zoom3");
const fwd = document.getElementById("forward-end");
const at = fwd ? +fwd.getAttribute("x1") : svg.getBoundingClientRect().width / 2;
for (let i = 0; i < 8; i++)
  svg.dispatchEvent(new WheelEvent("wheel", {bubbles: true, cancelable: true, deltaY: -100,
                                            clientX: svg.getBoundingClientRect().left + at, clientY: 100}));
check("zoom11");
)JS";

void check_no_overlaps(const std::string& name, const std::string& args, const std::string& window = "1400,900") {
    const fs::path dir = fresh_dir("gantt_overlap_" + name);
    const Outcome o = run_memsim(args + " -q --set output.gantt=true --out " + dir.string());
    INFO(o.err);
    REQUIRE(o.code == 0);
    const std::string dom = run_probe(dir / "gantt.html", std::string(kProbeHelpers) + kOverlapProbe, dir, window);
    INFO(name << "\n" << dom.substr(dom.find("<pre id=\"probe\">") == std::string::npos ? 0 : dom.find("<pre id=\"probe\">")));
    CHECK(probe_value(dom, "default") == "0");
    CHECK(probe_value(dom, "zoom3") == "0");
    CHECK(probe_value(dom, "zoom11") == "0");
    for (const char* view : {"default-labels", "zoom3-labels", "zoom11-labels"}) {
        const std::string labels = probe_value(dom, view);
        CHECK_THAT(labels, Catch::EndsWith(" outside 0"));
    }
}

}  // namespace

TEST_CASE("gantt chromium: no overlapping text in the shipped scenarios' charts at default and zoomed views", "[chromium]") {
    SKIP_WITHOUT_CHROMIUM();
    for (const char* scenario : {"example", "swap_modes", "budget_tradeoff", "disk_speed_whatif"}) {
        SECTION(scenario) { check_no_overlaps(scenario, fmt::format("run scenarios/{}.yaml", scenario)); }
    }
}

TEST_CASE("gantt chromium: no overlapping text for the README picture's run in a narrow window", "[chromium]") {
    SKIP_WITHOUT_CHROMIUM();
    check_no_overlaps("readme_narrow",
                      "run scenarios/swap_modes.yaml",  // as scripts/gantt_screenshot.sh runs it
                      "900,800");
}

TEST_CASE("gantt chromium: no overlapping text in the shipped prefetch_timing and swap_vs_recompute charts", "[shared][chromium]") {
    SKIP_WITHOUT_CHROMIUM();
    for (const char* scenario : {"prefetch_timing", "swap_vs_recompute"}) {
        SECTION(scenario) { check_no_overlaps(scenario, fmt::format("run scenarios/{}.yaml", scenario)); }
    }
}

TEST_CASE("gantt chromium: no overlapping text for MobilenetV2 swapping by budget at 70%", "[shared][chromium]") {
    SKIP_WITHOUT_CHROMIUM();
    check_no_overlaps("mobilenet_budget_swap",
                      "run scenarios/mobilenetv2_b4.yaml --set policy.allocator=os --set policy.swap.mode=async "
                      "--set policy.swap.select=budget --set platform.memory.budget_ratio=0.7");
}

TEST_CASE("gantt chromium: no overlapping text for MobilenetV2 under dtr at 60%", "[shared][chromium]") {
    SKIP_WITHOUT_CHROMIUM();
    check_no_overlaps("mobilenet_dtr",
                      "run scenarios/mobilenetv2_b4.yaml --set policy.allocator=os --set platform.memory.budget_ratio=0.6 "
                      "--set policy.recompute.heuristic=dtr");
}

TEST_CASE("gantt chromium: no overlapping text on a node's page (host RAM chart, node lanes, GPU selector)", "[chromium]") {
    SKIP_WITHOUT_CHROMIUM();
    for (const char* gpus : {"1", "4"}) {
        SECTION(std::string("gpus ") + gpus) {
            check_no_overlaps(std::string("node_gpus") + gpus,
                              std::string("run scenarios/tiers_host_ram_sweep.yaml --set platform.host.memory=64MiB "
                                          "--set platform.gpus=") + gpus);
        }
    }
}
