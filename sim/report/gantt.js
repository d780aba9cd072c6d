// gantt.html's script; embedded into the page at build time (cmake/embed_text.cmake).
// Draws the run from the JSON in <script id="memsim-data">: one lane per activity kind,
// one thin lane per instant-event kind (evictions, drops, cancelled writes), and the
// memory panel (memory by kind as a stacked area, the in-use and live curves, the budget).
// On a node's page (data.node) gantt_node.js, loaded first, picks the rows and memory of
// the selected GPU and draws the node's lanes and the host-RAM panel (window.memsimGanttNode).
(function () {
  "use strict";
  const data = JSON.parse(document.getElementById("memsim-data").textContent);
  const node = data.node ? window.memsimGanttNode(data) : null;
  const NS = "http://www.w3.org/2000/svg";
  const svg = document.getElementById("chart");
  const tip = document.getElementById("tooltip");
  const windowLabel = document.getElementById("window");
  const LEFT = 130, RIGHT = 190, TOP = 22, LANE_H = 24, MARK_H = 16, LANE_GAP = 6, MEM_H = 220, AXIS_H = 38;
  const lanes = data.lanes;
  const acts = data.activities;  // [lane, start_ms, end_ms, op, label index, tensors, bytes, for_tensor]
  const markKinds = data.mark_kinds;  // [{id, name, color, shape}]
  const marks = data.marks;      // [kind index, time_ms, op, tensor, bytes, label index]
  let mem = data.memory;         // [time_ms, bytes_in_use, live_bytes(, allocated_bytes when data.reports_allocated)]
  // A caching allocator (torch_caching): its footprint is the reserved segments, drawn
  // above the bytes in the blocks it handed out; the gap between them is fragmentation.
  const caching = data.reports_allocated;
  let kinds = data.kinds;        // null, or {names, colors, rows: [time_ms, bytes per kind...]}
  const byLane = lanes.map(() => []);
  acts.forEach((a, i) => byLane[a[0]].push(i));
  byLane.forEach(list => list.sort((x, y) => acts[x][1] - acts[y][1] || x - y));
  const byMarkKind = markKinds.map(() => []);
  marks.forEach((m, i) => byMarkKind[m[0]].push(i));
  byMarkKind.forEach(list => list.sort((x, y) => marks[x][1] - marks[y][1] || x - y));
  const actGpu = a => (node ? a[8] : 0), markGpu = m => (node ? m[6] : 0);
  const tEnd = data.end_ms > 0 ? data.end_ms : 1;
  let t0 = 0, t1 = tEnd;
  let width = 800;
  const kindTotal = r => { let s = 0; for (let k = 1; k < r.length; k++) s += r[k]; return s; };
  // One scale for every GPU's memory, so that switching GPUs compares them.
  const seriesMax = (series, k) => {
    let top = (series || []).reduce((t, m) => Math.max(t, m[1], m[2]), 0);
    if (k) top = k.rows.reduce((t, r) => Math.max(t, kindTotal(r)), top);
    return top;
  };
  let memMax = Math.max(Math.max(1, data.budget_bytes || 0), seriesMax(mem, kinds));
  if (node) node.memory.forEach((series, g) => { memMax = Math.max(memMax, seriesMax(series, node.kinds[g])); });
  memMax *= 1.08;
  // A row: an activity lane (its bands: the activities to draw, where and in which colour),
  // an instant-event lane, or (on a node) a group's title.
  let rows = lanes.map((l, li) => ({kind: "lane", h: LANE_H, lane: l, bands: [{list: byLane[li], color: l.color}]}))
    .concat(markKinds.map((k, ki) => ({kind: "marks", h: MARK_H, lane: k, list: byMarkKind[ki]})));
  let memTop = 0, memBottom = 0, bottom = 0, height = 0;  // set by layout()
  function layout() {
    if (node) { rows = node.rows(LANE_H, MARK_H); mem = node.mem(); kinds = node.kinds[node.selected] || null; }
    let y = TOP;
    rows.forEach(r => { r.y = y; y += r.h + LANE_GAP; });
    memTop = y + 10; memBottom = memTop + MEM_H;
    bottom = node ? node.layout(memBottom) : memBottom;
    height = bottom + AXIS_H;
  }
  let drawnBars = new Map(), drawnMarks = new Map();

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
  // One unit for the whole time axis: the one that fits the window's end.
  function timeUnit() {
    const a = Math.max(Math.abs(t0), Math.abs(t1));
    if (a < 1) return {name: "\u00b5s", per_ms: 1000};
    if (a < 10000) return {name: "ms", per_ms: 1};
    return {name: "s", per_ms: 0.001};
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

  // A bar's label inside it, only when the whole label fits in its visible part.
  function barLabel(g, x0, x1, y, h, text) {
    if (x1 - x0 < 40 || h < 16) return;
    const t = el("text", {class: "bar-label", x: x0 + 3, y: y + h / 2 + 3.5}, g, text);
    if (t.getComputedTextLength() > x1 - x0 - 6) g.removeChild(t);
  }

  // A lane's bands: all of it (one GPU), or one stripe per GPU on a node's shared lane.
  function drawLane(row, g) {
    const n = row.bands.length;
    row.bands.forEach((band, b) => {
      const h = n === 1 ? LANE_H : row.h / n;
      if (band.back) el("rect", {class: "band-bg", x: LEFT, y: row.y + b * h, width: width - LEFT - RIGHT, height: h, fill: band.back}, g);
      drawBand(row, band, row.y + b * (n === 1 ? 0 : h), n === 1 ? row.h : h, g);
    });
  }
  function drawBand(row, band, y, h, g) {
    const color = band.color, gpu = node ? {"data-gpu": band.gpu} : {}, laneId = (band.lane || row.lane).id;
    const bar = (i, x, w) => el("rect", Object.assign({class: "bar", "data-lane": laneId, "data-i": i}, gpu, {x: x, y: y, width: w, height: h, fill: color}), g);
    let agg = null;
    const flush = () => {
      if (!agg) return;
      const w = Math.max(1, agg.x1 - agg.x0);
      if (agg.n === 1) {
        drawnBars.set(agg.first, bar(agg.first, agg.x0, w));
      } else {
        // Busy share of the merged span sets the opacity: a dense run looks solid, a sparse one pale.
        const span = Math.max(agg.t1 - agg.t0, 1e-12);
        const opacity = (0.35 + 0.65 * Math.min(1, agg.busy / span)).toFixed(2);
        el("rect", Object.assign({class: "agg", "data-lane": laneId, "data-count": agg.n}, gpu, {"data-first": agg.first, "data-last": agg.last,
                    "data-busy": agg.busy, "data-bytes": agg.bytes, "data-t0": agg.t0, "data-t1": agg.t1,
                    x: agg.x0, y: y, width: w, height: h, fill: color, "fill-opacity": opacity}), g);
      }
      agg = null;
    };
    const labels = [];
    for (const i of band.list) {
      const a = acts[i];
      if (a[2] < t0 || a[1] > t1) continue;
      const x0 = clampX(X(a[1])), x1 = clampX(X(a[2]));
      if (x1 - x0 >= 1) {
        flush();
        drawnBars.set(i, bar(i, x0, x1 - x0));
        labels.push([x0, x1, data.labels[a[4]]]);
      } else if (agg && x0 <= agg.x1 + 1) {
        agg.x1 = Math.max(agg.x1, x1); agg.n++; agg.last = i; agg.busy += a[2] - a[1]; agg.bytes += a[6]; agg.t1 = Math.max(agg.t1, a[2]);
      } else {
        flush();
        agg = {x0: x0, x1: x1, n: 1, first: i, last: i, busy: a[2] - a[1], bytes: a[6], t0: a[1], t1: a[2]};
      }
    }
    flush();
    for (const [x0, x1, text] of labels) barLabel(g, x0, x1, y, h, text);
  }

  function markShape(shape, x, y, h) {
    const r = h / 2 - 2, c = y + h / 2;
    if (shape === "triangle") return "M" + (x - r) + "," + (c - r) + "H" + (x + r) + "L" + x + "," + (c + r) + "Z";
    if (shape === "diamond") return "M" + x + "," + (c - r) + "L" + (x + r) + "," + c + "L" + x + "," + (c + r) + "L" + (x - r) + "," + c + "Z";
    return "M" + (x - r) + "," + (c - r) + "L" + (x + r) + "," + (c + r) + "M" + (x + r) + "," + (c - r) + "L" + (x - r) + "," + (c + r);
  }
  // Instant events as markers; markers closer than 4 px merge into one that counts them.
  function drawMarks(row, g) {
    const kind = row.lane;
    const cross = kind.shape === "cross";
    const style = cross ? {fill: "none", stroke: kind.color, "stroke-width": 2} : {fill: kind.color};
    let group = null;
    const flush = () => {
      if (!group) return;
      const attrs = Object.assign({d: markShape(kind.shape, group.x, row.y, MARK_H), "data-kind": kind.id}, style);
      if (group.n === 1) {
        attrs.class = "mark"; attrs["data-m"] = group.first;
        drawnMarks.set(group.first, el("path", attrs, g));
      } else {
        attrs.class = "mark-agg"; attrs["data-count"] = group.n; attrs["data-first"] = group.first; attrs["data-last"] = group.last;
        attrs["data-bytes"] = group.bytes;
        // Several events in one place: the same marker, drawn over a dark disc so it reads as more than one.
        el("circle", {class: "mark-agg-back", cx: group.x, cy: row.y + MARK_H / 2, r: MARK_H / 2 - 0.5, fill: "#333", "fill-opacity": 0.25}, g);
        el("path", attrs, g);
      }
      group = null;
    };
    for (const i of row.list) {
      const m = marks[i];
      if (m[1] < t0 || m[1] > t1) continue;
      const x = X(m[1]);
      if (group && x - group.x < 4) { group.n++; group.last = i; group.bytes += m[4]; continue; }
      flush();
      group = {x: x, n: 1, first: i, last: i, bytes: m[4]};
    }
    flush();
  }

  // Rows of a time series in the window, one per half pixel: the row that maximises
  // `weight` there (transient peaks stay visible), with the value in force at the left edge first.
  function pixelRows(series, weight) {
    let lo = 0, hi = series.length;
    while (lo < hi) { const mid = (lo + hi) >> 1; if (series[mid][0] < t0) lo = mid + 1; else hi = mid; }
    const out = [];
    if (lo > 0) out.push([LEFT, series[lo - 1]]);
    for (let i = lo; i < series.length && series[i][0] <= t1; i++) {
      const x = Math.round(X(series[i][0]) * 2) / 2;
      const last = out[out.length - 1];
      if (last && last[0] === x) { if (weight(series[i]) >= weight(last[1])) last[1] = series[i]; last[2] = series[i]; }
      else out.push([x, series[i], series[i]]);
    }
    return out;
  }

  // Step curve of one column of a series (memory, host RAM) on the scale Y; each pixel
  // keeps its first, max, min and last value.
  function stepPath(mem, col, Y) {
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

  const memoryPath = col => stepPath(mem, col, Y);

  // Memory by kind, stacked: one closed step path per kind between its lower and upper edge.
  function drawKinds(g) {
    const pts = pixelRows(kinds.rows, kindTotal);
    if (!pts.length) return;
    const xEnd = clampX(X(Math.min(t1, tEnd)));
    for (let k = 0; k < kinds.names.length; k++) {
      const edge = (r, upper) => { let s = 0; for (let j = 0; j <= (upper ? k : k - 1); j++) s += r[j + 1]; return s; };
      const top = [], bottom = [];
      pts.forEach(([x, r], n) => {
        const next = n + 1 < pts.length ? pts[n + 1][0] : xEnd;
        top.push([x, Y(edge(r, true))], [next, Y(edge(r, true))]);
        bottom.push([x, Y(edge(r, false))], [next, Y(edge(r, false))]);
      });
      let d = "M" + top.map(p => p[0].toFixed(2) + "," + p[1].toFixed(2)).join("L");
      d += "L" + bottom.reverse().map(p => p[0].toFixed(2) + "," + p[1].toFixed(2)).join("L") + "Z";
      el("path", {class: "kind-area", "data-kind": kinds.names[k], d: d, fill: kinds.colors[k], stroke: "none"}, g);
    }
  }

  // The memory panel's legend, beside the curves in the right margin.
  function drawMemoryLegend(g) {
    const x = width - RIGHT + 14;
    let ly = memTop + 4;
    const line = (id, label, attrs) => {
      const item = el("g", {class: "memory-legend-item", "data-item": id}, g);
      el("line", Object.assign({x1: x, x2: x + 22, y1: ly + 6, y2: ly + 6}, attrs), item);
      el("text", {x: x + 28, y: ly + 10}, item, label);
      ly += 16;
    };
    line("in-use", caching ? "reserved (segments)" : "in use (allocator)", {stroke: "#1f3b73", "stroke-width": 2});
    if (caching) line("allocated", "allocated (blocks)", {stroke: "#2ca02c", "stroke-width": 1.5});
    line("live", "live tensors", {stroke: "#222", "stroke-width": 1.2, "stroke-dasharray": "2 2"});
    if (data.budget_bytes) line("budget", "budget " + fmtBytes(data.budget_bytes), {stroke: "#d62728", "stroke-width": 2, "stroke-dasharray": "7 4"});
    if (!kinds) return;
    ly += 4;
    for (let k = kinds.names.length - 1; k >= 0; k--) {  // top of the stack first, as drawn
      const item = el("g", {class: "memory-legend-item", "data-item": kinds.names[k]}, g);
      el("rect", {x: x + 4, y: ly + 1, width: 14, height: 10, fill: kinds.colors[k]}, item);
      el("text", {x: x + 28, y: ly + 10}, item, kinds.names[k]);
      ly += 16;
    }
  }

  function render() {
    layout();
    width = Math.max(720, document.documentElement.clientWidth - 40);
    svg.setAttribute("width", width);
    svg.setAttribute("height", height);
    svg.setAttribute("viewBox", "0 0 " + width + " " + height);
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    drawnBars = new Map(); drawnMarks = new Map();
    const defs = el("defs", {}, svg);
    const clip = el("clipPath", {id: "plot-area"}, defs);
    el("rect", {x: LEFT, y: 0, width: width - LEFT - RIGHT, height: height}, clip);

    const unit = timeUnit();
    const grid = el("g", {class: "time-axis"}, svg);
    for (const v of niceTicks(t0 * unit.per_ms, t1 * unit.per_ms, Math.max(2, Math.floor((width - LEFT - RIGHT) / 110)))) {
      const x = X(v / unit.per_ms);
      el("line", {class: "grid", x1: x, x2: x, y1: TOP, y2: bottom}, grid);
      // A label centred on a tick near an edge would run into the memory axis's labels:
      // it is aligned to the tick from the inside instead (about 3.6 px per half character).
      const label = String(+v.toPrecision(6)), half = label.length * 3.6;
      const anchor = x - half < LEFT ? "start" : x + half > width - RIGHT ? "end" : "middle";
      el("text", {class: "axis-label tick", x: x, y: bottom + 14, "text-anchor": anchor}, grid, label);
    }
    el("text", {class: "axis-label", x: width - RIGHT, y: bottom + 30, "text-anchor": "end"}, grid, "simulated time (" + unit.name + ")");

    rows.forEach(row => {
      if (row.kind === "group") { node.drawGroupTitle(row, svg, el, LEFT, width - RIGHT); return; }
      const mark = row.kind === "marks";
      const g = el("g", mark ? {class: "mark-lane", "data-kind": row.lane.id} : {class: "lane", "data-lane": row.lane.id}, svg);
      el("text", {class: "lane-label", x: LEFT - 8, y: row.y + row.h / 2 + 4, "text-anchor": "end"}, g, row.lane.name);
      el("rect", {class: "lane-bg", x: LEFT, y: row.y, width: width - LEFT - RIGHT, height: row.h, fill: mark ? "#fbfbfb" : "#f6f6f6"}, g);
      const inner = el("g", {"clip-path": "url(#plot-area)"}, g);
      if (mark) drawMarks(row, inner); else drawLane(row, inner);
    });

    const m = el("g", {class: "memory"}, svg);
    el("rect", {x: LEFT, y: memTop, width: width - LEFT - RIGHT, height: MEM_H, fill: "none", stroke: "#ccc"}, m);
    // Ticks at round numbers of the binary unit that fits (KiB, MiB, GiB), as fmtBytes prints them.
    const power = Math.max(0, Math.min(3, Math.floor(Math.log(memMax) / Math.log(1024))));
    const bunit = Math.pow(1024, power), unitName = ["B", "KiB", "MiB", "GiB"][power];
    for (const v of niceTicks(0, memMax / bunit, 4)) {
      const b = v * bunit;
      el("line", {class: "grid", x1: LEFT, x2: width - RIGHT, y1: Y(b), y2: Y(b)}, m);
      el("text", {class: "axis-label", x: LEFT - 6, y: Y(b) + 4, "text-anchor": "end"}, m, +v.toPrecision(6) + " " + unitName);
    }
    el("text", {class: "lane-label", transform: "translate(16," + (memTop + MEM_H / 2) + ") rotate(-90)", "text-anchor": "middle"}, m, "memory");
    const curves = el("g", {"clip-path": "url(#plot-area)"}, m);
    if (kinds) drawKinds(curves);
    if (node && node.selected === "all") node.drawAllMemory(curves, c => stepPath(c, 1, Y), el);
    else if (mem.length) {
      el("path", {id: "live-bytes", d: memoryPath(2), fill: "none", stroke: "#222", "stroke-width": 1.2, "stroke-dasharray": "2 2"}, curves);
      if (caching) el("path", {id: "allocated-bytes", d: memoryPath(3), fill: "none", stroke: "#2ca02c", "stroke-width": 1.5}, curves);
      el("path", {id: "memory-in-use", d: memoryPath(1), fill: "none", stroke: "#1f3b73", "stroke-width": 2}, curves);
    }
    if (data.budget_bytes)
      el("line", {id: "budget", x1: LEFT, x2: width - RIGHT, y1: Y(data.budget_bytes), y2: Y(data.budget_bytes),
                  stroke: "#d62728", "stroke-dasharray": "7 4", "stroke-width": 2}, m);
    if (node && node.selected === "all") node.drawAllLegend(m, width - RIGHT + 14, memTop + 4, el);
    else drawMemoryLegend(m);
    if (node) node.drawHost({el: el, svg: svg, X: X, T: T, clampX: clampX, stepPath: stepPath, niceTicks: niceTicks, fmtBytes: fmtBytes,
                             left: LEFT, right: width - RIGHT, tEnd: tEnd});
    // The boundary is GPU 0's (the log has no other's).
    if (data.forward_end_ms !== null && data.forward_end_ms >= t0 && data.forward_end_ms <= t1 && (!node || node.selected === 0)) {
      const x = X(data.forward_end_ms);
      el("line", {id: "forward-end", x1: x, x2: x, y1: TOP - 6, y2: node ? bottom : memBottom, stroke: "#000", "stroke-dasharray": "3 3"}, svg);
      // Above the lanes, each only where it fits inside the plot area.
      const fwd = el("text", {class: "phase-label", x: x - 4, y: TOP - 9, "text-anchor": "end"}, svg, "\u2190 forward");
      if (x - 4 - fwd.getComputedTextLength() < LEFT) svg.removeChild(fwd);
      const bwd = el("text", {class: "phase-label", x: x + 4, y: TOP - 9}, svg, "backward \u2192");
      if (x + 4 + bwd.getComputedTextLength() > width - RIGHT) svg.removeChild(bwd);
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

  // Tooltips and the highlighted journey of the tensor under the pointer (gantt_tooltip.js).
  window.memsimGanttTooltip({data: data, node: node, svg: svg, tip: tip, actGpu: actGpu, markGpu: markGpu, fmtTime: fmtTime,
    fmtBytes: fmtBytes, svgX: svgX, svgY: svgY, T: T, LEFT: LEFT, RIGHT: RIGHT, caching: caching,
    now: () => ({width: width, memTop: memTop, memBottom: memBottom, mem: mem, kinds: kinds, drag: drag,
                 drawnBars: drawnBars, drawnMarks: drawnMarks})});
  if (node) node.onSelect(render);
  // gantt.html#t=A,B opens on the window A..B ms (a link to a zoomed view); on a node
  // #gpu=G (or #t=A,B&gpu=G, G a number or "all") opens on that GPU.
  const initial = /^#t=([0-9.eE+-]+),([0-9.eE+-]+)(&|$)/.exec(window.location.hash);
  if (node) node.select(/(^#|&)gpu=(\d+|all)$/.exec(window.location.hash));
  if (initial && +initial[2] > +initial[1]) setWindow(+initial[1], +initial[2]);
  else render();
})();
