#include "sim/output/gantt_page.h"

namespace memsim::gantt_page {

const char* const kStyle = R"CSS(
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 16px 20px; color: #222; background: #fff; }
h1 { font-size: 20px; margin: 0 0 6px 0; }
.summary { font-size: 13px; margin: 0 0 8px 0; display: flex; flex-wrap: wrap; gap: 4px 16px; }
.summary b { font-weight: 600; }
.status { padding: 1px 6px; border-radius: 3px; color: #fff; background: #59a14f; }
.status.oom, .status.thrash, .status.error { background: #e15759; }
.message { font-size: 13px; color: #b00; margin: 0 0 8px 0; }
.controls { font-size: 13px; margin: 4px 0; display: flex; gap: 8px; align-items: center; }
.controls button { font-size: 13px; padding: 2px 10px; }
.legend { display: inline-flex; gap: 12px; margin-left: 16px; }
.legend span::before { content: ""; display: inline-block; width: 10px; height: 10px; margin-right: 4px; background: var(--c); }
#chart { user-select: none; cursor: grab; display: block; }
#chart.dragging { cursor: grabbing; }
#chart text { font-size: 11px; fill: #333; }
#chart .lane-label { font-size: 12px; }
#chart .grid { stroke: #e6e6e6; }
#chart .axis-label { fill: #555; }
#chart .bar:hover, #chart .agg:hover { stroke: #000; stroke-width: 1; }
#tooltip { position: fixed; pointer-events: none; background: rgba(255,255,255,0.96); border: 1px solid #888;
           padding: 4px 8px; font-size: 12px; white-space: pre; display: none; box-shadow: 1px 1px 4px rgba(0,0,0,.2); }
)CSS";

const char* const kScript = R"JS(
(function () {
  "use strict";
  const data = JSON.parse(document.getElementById("memsim-data").textContent);
  const NS = "http://www.w3.org/2000/svg";
  const svg = document.getElementById("chart");
  const tip = document.getElementById("tooltip");
  const windowLabel = document.getElementById("window");
  const LEFT = 120, RIGHT = 24, TOP = 8, LANE_H = 24, LANE_GAP = 6, MEM_H = 200, AXIS_H = 34;
  const lanes = data.lanes;
  const acts = data.activities;  // [lane, start_ms, end_ms, op, label index, tensors, bytes]
  const mem = data.memory;       // [time_ms, bytes_in_use, live_bytes]
  const byLane = lanes.map(() => []);
  acts.forEach((a, i) => byLane[a[0]].push(i));
  byLane.forEach(list => list.sort((x, y) => acts[x][1] - acts[y][1] || x - y));
  const tEnd = data.end_ms > 0 ? data.end_ms : 1;
  let t0 = 0, t1 = tEnd;
  let width = 800;
  const memMax = mem.reduce((top, m) => Math.max(top, m[1], m[2]), Math.max(1, data.budget_bytes || 0)) * 1.08;
  const lanesBottom = TOP + lanes.length * (LANE_H + LANE_GAP);
  const memTop = lanesBottom + 16, memBottom = memTop + MEM_H;
  const height = memBottom + AXIS_H;

  function el(name, attrs, parent, text) {
    const e = document.createElementNS(NS, name);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    if (parent) parent.appendChild(e);
    return e;
  }
  const X = t => LEFT + (t - t0) / (t1 - t0) * (width - LEFT - RIGHT);
  const T = x => t0 + (x - LEFT) / (width - LEFT - RIGHT) * (t1 - t0);
  const Y = b => memBottom - b / memMax * MEM_H;
  const clampX = x => Math.max(LEFT, Math.min(width - RIGHT, x));

  function fmtTime(ms) {
    const a = Math.abs(ms);
    if (a === 0) return "0";
    if (a < 1) return +(ms * 1000).toPrecision(4) + " \u00b5s";
    if (a < 10000) return +ms.toPrecision(6) + " ms";
    return +(ms / 1000).toPrecision(6) + " s";
  }
  function fmtBytes(b) {
    if (b >= 1073741824) return (b / 1073741824).toFixed(2) + " GiB";
    if (b >= 1048576) return (b / 1048576).toFixed(2) + " MiB";
    if (b >= 1024) return (b / 1024).toFixed(2) + " KiB";
    return b + " B";
  }
  function niceTicks(lo, hi, count) {
    const span = hi - lo;
    if (!(span > 0)) return [lo];
    const raw = span / count, p = Math.pow(10, Math.floor(Math.log10(raw)));
    const step = [1, 2, 5, 10].map(m => m * p).find(s => s >= raw);
    const ticks = [];
    for (let v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) ticks.push(Math.abs(v) < step * 1e-9 ? 0 : v);
    return ticks;
  }

  function drawLane(li, g) {
    const y = TOP + li * (LANE_H + LANE_GAP);
    const color = lanes[li].color;
    let agg = null;
    const flush = () => {
      if (!agg) return;
      const w = Math.max(1, agg.x1 - agg.x0);
      if (agg.n === 1) {
        el("rect", {class: "bar", "data-lane": lanes[li].id, "data-i": agg.first, x: agg.x0, y: y, width: w, height: LANE_H, fill: color}, g);
      } else {
        // Busy share of the merged span sets the opacity: a dense run looks solid, a sparse one pale.
        const span = Math.max(agg.t1 - agg.t0, 1e-12);
        const opacity = (0.35 + 0.65 * Math.min(1, agg.busy / span)).toFixed(2);
        el("rect", {class: "agg", "data-lane": lanes[li].id, "data-count": agg.n, "data-first": agg.first, "data-last": agg.last,
                    "data-busy": agg.busy, "data-bytes": agg.bytes, "data-t0": agg.t0, "data-t1": agg.t1,
                    x: agg.x0, y: y, width: w, height: LANE_H, fill: color, "fill-opacity": opacity}, g);
      }
      agg = null;
    };
    for (const i of byLane[li]) {
      const a = acts[i];
      if (a[2] < t0 || a[1] > t1) continue;
      const x0 = clampX(X(a[1])), x1 = clampX(X(a[2]));
      if (x1 - x0 >= 1) {
        flush();
        el("rect", {class: "bar", "data-lane": lanes[li].id, "data-i": i, x: x0, y: y, width: x1 - x0, height: LANE_H, fill: color}, g);
      } else if (agg && x0 <= agg.x1 + 1) {
        agg.x1 = Math.max(agg.x1, x1); agg.n++; agg.last = i; agg.busy += a[2] - a[1]; agg.bytes += a[6]; agg.t1 = Math.max(agg.t1, a[2]);
      } else {
        flush();
        agg = {x0: x0, x1: x1, n: 1, first: i, last: i, busy: a[2] - a[1], bytes: a[6], t0: a[1], t1: a[2]};
      }
    }
    flush();
  }

  // Step curve of one memory column; with more samples than pixels, each pixel keeps its first, max, min and
  // last value so that transient peaks stay visible.
  function memoryPath(col) {
    let lo = 0, hi = mem.length;
    while (lo < hi) { const mid = (lo + hi) >> 1; if (mem[mid][0] < t0) lo = mid + 1; else hi = mid; }
    const start = Math.max(0, lo - 1);
    let value = start < mem.length && mem[start][0] <= t0 ? mem[start][col] : 0;
    let d = "M" + LEFT + "," + Y(value).toFixed(2);
    let px = null, first = 0, mx = 0, mn = 0, last = 0;
    const emit = () => {
      if (px === null) return;
      const x = px.toFixed(2);
      d += "L" + x + "," + Y(first).toFixed(2);
      if (mx !== first || mn !== first) d += "L" + x + "," + Y(mx).toFixed(2) + "L" + x + "," + Y(mn).toFixed(2);
      d += "L" + x + "," + Y(last).toFixed(2);
    };
    for (let i = start; i < mem.length && mem[i][0] <= t1; i++) {
      if (mem[i][0] < t0) continue;
      const x = Math.round(X(mem[i][0]) * 2) / 2;
      const v = mem[i][col];
      if (px !== x) { emit(); px = x; first = value; mx = Math.max(value, v); mn = Math.min(value, v); }
      else { mx = Math.max(mx, v); mn = Math.min(mn, v); }
      last = v; value = v;
    }
    emit();
    const tStop = Math.min(t1, Math.max(tEnd, mem.length ? mem[mem.length - 1][0] : 0));
    d += "L" + clampX(X(tStop)).toFixed(2) + "," + Y(value).toFixed(2);
    return d;
  }

  function render() {
    width = Math.max(640, document.documentElement.clientWidth - 40);
    svg.setAttribute("width", width);
    svg.setAttribute("height", height);
    svg.setAttribute("viewBox", "0 0 " + width + " " + height);
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    const defs = el("defs", {}, svg);
    const clip = el("clipPath", {id: "plot-area"}, defs);
    el("rect", {x: LEFT, y: 0, width: width - LEFT - RIGHT, height: height}, clip);

    const grid = el("g", {class: "time-axis"}, svg);
    for (const t of niceTicks(t0, t1, Math.max(2, Math.floor((width - LEFT - RIGHT) / 110)))) {
      const x = X(t);
      el("line", {class: "grid", x1: x, x2: x, y1: TOP, y2: memBottom}, grid);
      el("text", {class: "axis-label", x: x, y: memBottom + 14, "text-anchor": "middle"}, grid, fmtTime(t));
    }
    el("text", {class: "axis-label", x: width - RIGHT, y: memBottom + 28, "text-anchor": "end"}, grid, "simulated time");

    lanes.forEach((lane, li) => {
      const y = TOP + li * (LANE_H + LANE_GAP);
      const g = el("g", {class: "lane", "data-lane": lane.id}, svg);
      el("text", {class: "lane-label", x: LEFT - 8, y: y + LANE_H / 2 + 4, "text-anchor": "end"}, g, lane.name);
      el("rect", {class: "lane-bg", x: LEFT, y: y, width: width - LEFT - RIGHT, height: LANE_H, fill: "#f6f6f6"}, g);
      const bars = el("g", {"clip-path": "url(#plot-area)"}, g);
      drawLane(li, bars);
    });

    const m = el("g", {class: "memory"}, svg);
    el("rect", {x: LEFT, y: memTop, width: width - LEFT - RIGHT, height: MEM_H, fill: "none", stroke: "#ccc"}, m);
    // Ticks at round numbers of the binary unit that fits (KiB, MiB, GiB), as fmtBytes prints them.
    const power = Math.max(0, Math.min(3, Math.floor(Math.log(memMax) / Math.log(1024))));
    const unit = Math.pow(1024, power), unitName = ["B", "KiB", "MiB", "GiB"][power];
    for (const v of niceTicks(0, memMax / unit, 4)) {
      const b = v * unit;
      el("line", {class: "grid", x1: LEFT, x2: width - RIGHT, y1: Y(b), y2: Y(b)}, m);
      el("text", {class: "axis-label", x: LEFT - 6, y: Y(b) + 4, "text-anchor": "end"}, m, +v.toPrecision(6) + " " + unitName);
    }
    el("text", {class: "lane-label", x: 4, y: memTop + 12}, m, "memory");
    // The curves' legend, below the panel where the time axis leaves room.
    el("line", {x1: 4, x2: 22, y1: memBottom + 10, y2: memBottom + 10, stroke: "#4e79a7", "stroke-width": 1.5}, m);
    el("text", {x: 26, y: memBottom + 14}, m, "in use");
    el("line", {x1: 4, x2: 22, y1: memBottom + 24, y2: memBottom + 24, stroke: "#a0cbe8", "stroke-width": 1}, m);
    el("text", {x: 26, y: memBottom + 28}, m, "live");
    const curves = el("g", {"clip-path": "url(#plot-area)"}, m);
    if (mem.length) {
      el("path", {id: "live-bytes", d: memoryPath(2), fill: "none", stroke: "#a0cbe8", "stroke-width": 1}, curves);
      el("path", {id: "memory-in-use", d: memoryPath(1), fill: "none", stroke: "#4e79a7", "stroke-width": 1.5}, curves);
    }
    if (data.budget_bytes) {
      el("line", {id: "budget", x1: LEFT, x2: width - RIGHT, y1: Y(data.budget_bytes), y2: Y(data.budget_bytes),
                  stroke: "#e15759", "stroke-dasharray": "6 4", "stroke-width": 1.5}, m);
      el("text", {x: width - RIGHT - 4, y: Y(data.budget_bytes) - 4, "text-anchor": "end", fill: "#e15759"}, m,
         "budget " + fmtBytes(data.budget_bytes));
    }
    if (data.forward_end_ms !== null && data.forward_end_ms >= t0 && data.forward_end_ms <= t1) {
      const x = X(data.forward_end_ms);
      el("line", {id: "forward-end", x1: x, x2: x, y1: TOP - 4, y2: memBottom, stroke: "#000", "stroke-dasharray": "3 3"}, svg);
      el("text", {x: x - 4, y: memTop + 12, "text-anchor": "end"}, svg, "forward");
      el("text", {x: x + 4, y: memTop + 12}, svg, "backward");
    }
    windowLabel.textContent = "showing " + fmtTime(t0) + " \u2013 " + fmtTime(t1) + " of " + fmtTime(tEnd);
  }

  function setWindow(a, b) {
    const minSpan = Math.max(tEnd * 1e-9, 1e-9);
    let span = Math.min(tEnd, Math.max(minSpan, b - a));
    a = Math.max(0, Math.min(a, tEnd - span));
    t0 = a; t1 = a + span;
    render();
  }
  function zoomAt(x, factor) {
    const c = T(Math.max(LEFT, Math.min(width - RIGHT, x)));
    setWindow(c - (c - t0) * factor, c + (t1 - c) * factor);
  }
  const svgX = e => e.clientX - svg.getBoundingClientRect().left;
  const svgY = e => e.clientY - svg.getBoundingClientRect().top;
  svg.addEventListener("wheel", e => { e.preventDefault(); zoomAt(svgX(e), e.deltaY < 0 ? 1 / 1.25 : 1.25); }, {passive: false});
  let drag = null;
  svg.addEventListener("mousedown", e => { drag = {x: e.clientX, t0: t0, t1: t1}; svg.classList.add("dragging"); });
  window.addEventListener("mouseup", () => { drag = null; svg.classList.remove("dragging"); });
  window.addEventListener("mousemove", e => {
    if (!drag) return;
    const dt = (e.clientX - drag.x) / (width - LEFT - RIGHT) * (drag.t1 - drag.t0);
    setWindow(drag.t0 - dt, drag.t1 - dt);
  });
  svg.addEventListener("dblclick", () => setWindow(0, tEnd));
  document.getElementById("zoom-in").addEventListener("click", () => zoomAt((LEFT + width - RIGHT) / 2, 1 / 1.5));
  document.getElementById("zoom-out").addEventListener("click", () => zoomAt((LEFT + width - RIGHT) / 2, 1.5));
  document.getElementById("reset").addEventListener("click", () => setWindow(0, tEnd));
  window.addEventListener("resize", render);

  function memoryAt(t) {
    let lo = 0, hi = mem.length;
    while (lo < hi) { const mid = (lo + hi) >> 1; if (mem[mid][0] <= t) lo = mid + 1; else hi = mid; }
    return lo > 0 ? mem[lo - 1] : null;
  }
  function describe(target, e) {
    if (target && target.classList.contains("bar")) {
      const a = acts[+target.getAttribute("data-i")];
      return data.labels[a[4]] + "\n" + lanes[a[0]].name + (a[3] >= 0 ? "   op " + a[3] : "") +
             (a[5] ? "\ntensors " + a[5] : "") + (a[6] ? "\n" + fmtBytes(a[6]) + " (" + a[6] + " B)" : "") +
             "\nstart " + fmtTime(a[1]) + "   duration " + fmtTime(a[2] - a[1]);
    }
    if (target && target.classList.contains("agg")) {
      const first = acts[+target.getAttribute("data-first")], last = acts[+target.getAttribute("data-last")];
      const bytes = +target.getAttribute("data-bytes");
      return target.getAttribute("data-count") + " activities (merged: narrower than a pixel; zoom in)\n" +
             data.labels[first[4]] + " \u2026 " + data.labels[last[4]] +
             "\n" + fmtTime(+target.getAttribute("data-t0")) + " \u2013 " + fmtTime(+target.getAttribute("data-t1")) +
             "   busy " + fmtTime(+target.getAttribute("data-busy")) + (bytes ? "\n" + fmtBytes(bytes) : "");
    }
    const x = svgX(e), y = svgY(e);
    if (y >= memTop && y <= memBottom && x >= LEFT && x <= width - RIGHT) {
      const t = T(x), s = memoryAt(t);
      return "t = " + fmtTime(t) + "\nin use " + fmtBytes(s ? s[1] : 0) + "\nlive " + fmtBytes(s ? s[2] : 0);
    }
    return null;
  }
  svg.addEventListener("mousemove", e => {
    const text = drag ? null : describe(e.target.closest ? e.target.closest(".bar,.agg") : null, e);
    if (!text) { tip.style.display = "none"; return; }
    tip.textContent = text;
    tip.style.display = "block";
    tip.style.left = Math.min(e.clientX + 14, window.innerWidth - tip.offsetWidth - 4) + "px";
    tip.style.top = (e.clientY + 14) + "px";
  });
  svg.addEventListener("mouseleave", () => { tip.style.display = "none"; });
  // gantt.html#t=A,B opens on the window A..B ms (a link to a zoomed view).
  const initial = /^#t=([0-9.eE+-]+),([0-9.eE+-]+)$/.exec(window.location.hash);
  if (initial && +initial[2] > +initial[1]) setWindow(+initial[1], +initial[2]);
  else render();
})();
)JS";

}  // namespace memsim::gantt_page
