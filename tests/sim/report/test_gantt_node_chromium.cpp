// gantt.html of a node (docs/tiers.md) in headless Chromium: two GPUs sharing a switch
// uplink, host RAM and a disk. The selector switches the GPU lanes and the memory chart
// between the GPUs without reloading; the node's lanes hold both GPUs' transfers; the
// host-RAM chart has its capacity line where the capacity is. Without Chromium these
// tests skip, loudly (chromium_support.h).
#include <catch2/catch.hpp>

#include <filesystem>
#include <regex>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "chromium_support.h"
#include "file_support.h"

using namespace memsim::test;
namespace fs = std::filesystem;

namespace {

// What the page shows, before and after clicking the selector's buttons: the GPUs of the
// bars in the compute lane, those of the node's switch lane, the memory curve, the host
// panel's capacity line (its y and the y the panel's scale gives) and its legend.
const char* const kSelectorProbe = R"JS(
const svg = document.getElementById("chart");
const gpusIn = sel => Array.from(new Set(Array.from(svg.querySelectorAll(sel)).map(e => e.getAttribute("data-gpu")))).sort().join(",");
function state(key) {
  report(key + "-compute", gpusIn('g.lane[data-lane="compute"] rect.bar, g.lane[data-lane="compute"] rect.agg'));
  report(key + "-switch", gpusIn('g.lane[data-lane="switch0 d2h"] rect.bar, g.lane[data-lane="switch0 d2h"] rect.agg'));
  report(key + "-memory", svg.querySelectorAll("#memory-in-use").length + " " + svg.querySelectorAll("path.gpu-memory").length);
  report(key + "-memory-d", (document.getElementById("memory-in-use") || {getAttribute: () => ""}).getAttribute("d").length);
  report(key + "-on", Array.from(document.querySelectorAll("#gpu-select button.on")).map(b => b.getAttribute("data-gpu")).join(","));
  report(key + "-figures", document.getElementById("gpu-figures").textContent);
}
state("gpu0");
document.querySelector('#gpu-select button[data-gpu="1"]').click();
state("gpu1");
document.querySelector('#gpu-select button[data-gpu="all"]').click();
state("all");
const cap = document.getElementById("host-capacity");
report("capacity-line", cap ? cap.getAttribute("stroke-dasharray") + " " + cap.getAttribute("y1") : "none");
const frame = svg.querySelector("g.host-memory rect");
report("host-frame", frame ? frame.getAttribute("y") + " " + frame.getAttribute("height") : "none");
report("host-curve", document.getElementById("host-in-use") ? "yes" : "no");
report("host-legend", Array.from(svg.querySelectorAll("g.host-memory .memory-legend-item text")).map(t => t.textContent).join(" | "));
report("overlaps", textOverlaps(document.body).length);
// A tooltip of the node's disk lane: the link or disk, the GPU, the tensor and the bytes.
const bar = svg.querySelector('g.lane[data-lane="disk0 write"] rect.bar[data-gpu="1"]');
if (bar) {
  const r = bar.getBoundingClientRect();
  bar.dispatchEvent(new MouseEvent("mousemove", {bubbles: true, clientX: r.left + r.width / 2, clientY: r.top + r.height / 2}));
  report("tip", document.getElementById("tooltip").textContent.split("\n").join(" / "));
}
)JS";

}  // namespace

TEST_CASE("gantt chromium: a node's page switches GPUs and draws host RAM with its capacity", "[chromium]") {
    SKIP_WITHOUT_CHROMIUM();
    const fs::path dir = fresh_dir("gantt_node_selector");
    // Two GPUs of tiers_host_ram_sweep with 64 MiB of host RAM: both use host RAM and the disk.
    const Outcome o = run_memsim("run scenarios/tiers_host_ram_sweep.yaml -q --set platform.gpus=2 "
                                 "--set platform.host.memory=64MiB --set output.gantt=true --out " + dir.string());
    INFO(o.err);
    REQUIRE(o.code == 0);
    const std::string dom = run_probe(dir / "gantt.html", std::string(kProbeHelpers) + kSelectorProbe, dir, "1400,1000");
    INFO(dom.substr(dom.find("<pre id=\"probe\">") == std::string::npos ? 0 : dom.find("<pre id=\"probe\">")));
    // GPU 0 first: its compute lane, the switch with both GPUs' flows, its own memory curve.
    CHECK(probe_value(dom, "gpu0-compute") == "0");
    CHECK(probe_value(dom, "gpu0-switch") == "0,1");
    CHECK(probe_value(dom, "gpu0-memory") == "1 0");
    CHECK(probe_value(dom, "gpu0-on") == "0");
    const nlohmann::json summary = nlohmann::json::parse(read_file(dir / "summary.json"));
    CHECK(probe_value(dom, "gpu0-figures").find(fmt::format("time {:.3f} ms", summary["gpus"][0]["time_ms"].get<double>())) !=
          std::string::npos);
    // GPU 1 after a click: its lanes and curve, the same shared lanes.
    CHECK(probe_value(dom, "gpu1-compute") == "1");
    CHECK(probe_value(dom, "gpu1-switch") == "0,1");
    CHECK(probe_value(dom, "gpu1-memory") == "1 0");
    CHECK(probe_value(dom, "gpu1-on") == "1");
    CHECK(probe_value(dom, "gpu1-figures").find(fmt::format("time {:.3f} ms", summary["gpus"][1]["time_ms"].get<double>())) !=
          std::string::npos);
    // "all": every GPU's lanes as stripes and one memory curve per GPU.
    CHECK(probe_value(dom, "all-compute") == "0,1");
    CHECK(probe_value(dom, "all-memory") == "0 2");
    CHECK(probe_value(dom, "all-on") == "all");
    // The capacity line: dashed like the budget, at 64 MiB on the panel's scale (top = 1.08
    // x the larger of capacity and peak; the peak cannot pass the capacity).
    const std::string frame = probe_value(dom, "host-frame");
    REQUIRE(frame != "none");
    const double top = std::stod(frame), height = std::stod(frame.substr(frame.find(' ') + 1));
    const std::string line = probe_value(dom, "capacity-line");
    REQUIRE(line.rfind("7 4 ", 0) == 0);
    CHECK(std::stod(line.substr(4)) == Approx(top + height - height / 1.08).margin(0.01));
    CHECK(probe_value(dom, "host-curve") == "yes");
    CHECK(probe_value(dom, "host-legend") == "host RAM in use | capacity 64.00 MiB");
    CHECK(probe_value(dom, "overlaps") == "0");
    // "tensor x316 (1.53 MiB) / disk0 write   GPU 1   op 12 / tensors 17 / 1.53 MiB (1605632 B) / start ..."
    const std::string tip = probe_value(dom, "tip");
    CHECK(std::regex_search(tip, std::regex("^tensor [^/]+ \\(\\d+\\.\\d\\d [KM]iB\\) / disk0 write   GPU 1   op \\d+ / tensors \\d+ / [0-9.]+ [KM]iB \\(\\d+ B\\) / start ")));
    CHECK(summary["host_peak_bytes"].get<std::uint64_t>() > 0);
    CHECK(summary["host_peak_bytes"].get<std::uint64_t>() <= 64u << 20);
}
