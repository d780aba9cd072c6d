// gantt.html's script for a node (docs/tiers.md); embedded before gantt.js on a node's page
// only. gantt.js asks it which rows to draw for the selected GPU (its lanes and instant
// events, then the "node" lanes: one per link direction and per disk, each holding every
// GPU's transfers, one stripe per GPU in the GPU's colour, so that flows overlapping on
// a shared link show as stripes one above the other), which memory curve to draw, and to
// draw the host-RAM panel (in use, and the capacity as a dashed line) under the GPU's.
window.memsimGanttNode = function (data) {
  "use strict";
  const info = data.node, gpus = info.gpus, colors = info.gpu_colors;
  const acts = data.activities, lanes = data.lanes, marks = data.marks;
  const GROUP_H = 16, HOST_H = 130, STRIPE_H = 5;
  const host = info.host_memory, capacity = info.host_capacity_bytes;
  const hasHost = host.length > 0 || capacity !== null;
  const gpuColor = g => colors[g % colors.length];
  // Per lane: GPU -> its activities in time order, and the GPUs present.
  const byLaneGpu = lanes.map(() => new Map());
  acts.forEach((a, i) => { const m = byLaneGpu[a[0]]; if (!m.has(a[8])) m.set(a[8], []); m.get(a[8]).push(i); });
  byLaneGpu.forEach(m => m.forEach(list => list.sort((x, y) => acts[x][1] - acts[y][1] || x - y)));
  const gpusOn = byLaneGpu.map(m => Array.from(m.keys()).sort((x, y) => x - y));
  const marksOf = data.mark_kinds.map(() => ({all: [], byGpu: new Map()}));
  marks.forEach((m, i) => {
    const k = marksOf[m[0]];
    k.all.push(i);
    if (!k.byGpu.has(m[6])) k.byGpu.set(m[6], []);
    k.byGpu.get(m[6]).push(i);
  });
  const byTime = (x, y) => marks[x][1] - marks[y][1] || x - y;
  marksOf.forEach(k => { k.all.sort(byTime); k.byGpu.forEach(list => list.sort(byTime)); });
  const fmtMiB = b => (b / 1048576).toFixed(2) + " MiB";
  const direction = {out: "GPU \u2192 host", in: "host \u2192 GPU"};  // on a link of a GPU's route to the host

  const view = {gpus: gpus, selected: 0, memory: info.memory, kinds: info.kinds};
  let hostTop = 0, hostBottom = 0, hostMax = 1;

  // Rows for the selection: a GPU's lanes (or, for "all", every GPU's as stripes), its
  // instant events, then the node's lanes (a GPU's own PCIe link only when it is selected).
  view.rows = function (LANE_H, MARK_H) {
    const sel = view.selected, all = sel === "all", rows = [];
    const stripes = (li, back) => gpusOn[li].map(g => ({list: byLaneGpu[li].get(g), color: gpuColor(g), gpu: g,
                                                        back: back && g === sel && gpusOn[li].length > 1 ? "#dadada" : undefined}));
    const stripedHeight = n => (n <= 1 ? LANE_H : Math.max(LANE_H, STRIPE_H * n));
    const title = text => rows.push({kind: "group", h: GROUP_H, title: text});
    if (gpus > 1) title(all ? "all " + gpus + " GPUs, one stripe each" : "GPU " + sel);
    lanes.forEach((lane, li) => {
      if (lane.group !== "gpu") return;
      if (!all) rows.push({kind: "lane", h: LANE_H, lane: lane, bands: [{list: byLaneGpu[li].get(sel) || [], color: lane.color, gpu: sel}]});
      else rows.push({kind: "lane", h: stripedHeight(gpusOn[li].length), lane: lane, bands: stripes(li, false)});
    });
    data.mark_kinds.forEach((kind, ki) => rows.push({kind: "marks", h: MARK_H, lane: kind, list: all ? marksOf[ki].all : marksOf[ki].byGpu.get(sel) || []}));
    const shown = lanes.map((lane, li) => li).filter(li => lanes[li].group === "node" &&
      (all || gpus === 1 || gpusOn[li].length > 1 || gpusOn[li][0] === sel));
    if (shown.length) title(gpus > 1 ? "node: links and disks, every GPU's transfers (stripes by GPU)" : "node: links and disks");
    const own = new Map();  // "all": each GPU's own link of one direction in one row, a stripe each
    shown.forEach(li => {
      const lane = lanes[li];
      if (gpus === 1) rows.push({kind: "lane", h: LANE_H, lane: lane, bands: [{list: byLaneGpu[li].get(0) || [], color: lane.color, gpu: 0}]});
      else if (!all || gpusOn[li].length > 1 || lane.family === undefined) rows.push({kind: "lane", h: stripedHeight(gpusOn[li].length), lane: lane, bands: stripes(li, !all)});
      else {
        const key = lane.family;
        if (!own.has(key)) { own.set(key, {kind: "lane", lane: {id: key, name: key}, bands: [], numbers: []}); rows.push(own.get(key)); }
        const row = own.get(key), g = gpusOn[li][0];
        row.bands.push({list: byLaneGpu[li].get(g), color: gpuColor(g), gpu: g, lane: lane});
        row.numbers.push(lane.number);
      }
    });
    own.forEach(row => {
      row.h = stripedHeight(row.bands.length);
      const lo = Math.min(...row.numbers), hi = Math.max(...row.numbers);
      row.lane.name = row.lane.id.replace("*", lo === hi ? String(lo) : lo + "\u2013" + hi);
    });
    return rows;
  };
  view.mem = () => (view.selected === "all" ? [] : view.memory[view.selected]);
  view.layout = function (memBottom) {
    if (!hasHost) return memBottom;
    hostTop = memBottom + 14; hostBottom = hostTop + HOST_H;
    hostMax = Math.max(1, capacity || 0, host.reduce((top, h) => Math.max(top, h[1]), 0)) * 1.08;
    return hostBottom;
  };
  const hostY = b => hostBottom - b / hostMax * HOST_H;

  view.drawGroupTitle = function (row, svg, el, left, right) {
    const g = el("g", {class: "lane-group", "data-group": row.title}, svg);
    el("line", {x1: 8, x2: right, y1: row.y + GROUP_H - 2, y2: row.y + GROUP_H - 2, stroke: "#bbb"}, g);
    el("text", {class: "group-title", x: 8, y: row.y + GROUP_H - 5}, g, row.title);
  };

  // "all": each GPU's memory in use, in its colour.
  view.drawAllMemory = function (g, pathOf, el) {
    view.memory.forEach((series, gpu) => {
      if (series.length) el("path", {class: "gpu-memory", "data-gpu": gpu, d: pathOf(series), fill: "none", stroke: gpuColor(gpu), "stroke-width": 1.5}, g);
    });
  };
  view.drawAllLegend = function (g, x, y, el) {
    el("text", {x: x, y: y + 10}, g, "in use, per GPU:");
    for (let k = 0; k < gpus && k < 10; k++) {
      const item = el("g", {class: "memory-legend-item", "data-item": "gpu" + k}, g);
      el("line", {x1: x, x2: x + 22, y1: y + 22 + k * 16, y2: y + 22 + k * 16, stroke: gpuColor(k), "stroke-width": 2}, item);
      el("text", {x: x + 28, y: y + 26 + k * 16}, item, "GPU " + k);
    }
    if (gpus > 10) el("text", {x: x + 28, y: y + 26 + 10 * 16}, g, "\u2026 (colours repeat)");
    if (!data.budget_bytes) return;
    const by = y + 22 + (Math.min(gpus, 10) + (gpus > 10 ? 1 : 0)) * 16 + 4;
    const item = el("g", {class: "memory-legend-item", "data-item": "budget"}, g);
    el("line", {x1: x, x2: x + 22, y1: by, y2: by, stroke: "#d62728", "stroke-width": 2, "stroke-dasharray": "7 4"}, item);
    el("text", {x: x + 28, y: by + 4}, item, "budget " + fmtMiB(data.budget_bytes));
  };

  view.drawHost = function (c) {
    if (!hasHost) return;
    const el = c.el, g = el("g", {class: "host-memory"}, c.svg);
    el("rect", {x: c.left, y: hostTop, width: c.right - c.left, height: HOST_H, fill: "none", stroke: "#ccc"}, g);
    const power = Math.max(0, Math.min(3, Math.floor(Math.log(hostMax) / Math.log(1024))));
    const unit = Math.pow(1024, power), unitName = ["B", "KiB", "MiB", "GiB"][power];
    for (const v of c.niceTicks(0, hostMax / unit, 3)) {
      el("line", {class: "grid", x1: c.left, x2: c.right, y1: hostY(v * unit), y2: hostY(v * unit)}, g);
      el("text", {class: "axis-label", x: c.left - 6, y: hostY(v * unit) + 4, "text-anchor": "end"}, g, +v.toPrecision(6) + " " + unitName);
    }
    el("text", {class: "lane-label", transform: "translate(16," + (hostTop + HOST_H / 2) + ") rotate(-90)", "text-anchor": "middle"}, g, "host RAM");
    const curves = el("g", {"clip-path": "url(#plot-area)"}, g);
    if (host.length) el("path", {id: "host-in-use", d: c.stepPath(host, 1, hostY), fill: "none", stroke: "#9c5b1f", "stroke-width": 2}, curves);
    if (capacity !== null)
      el("line", {id: "host-capacity", x1: c.left, x2: c.right, y1: hostY(capacity), y2: hostY(capacity),
                  stroke: "#d62728", "stroke-dasharray": "7 4", "stroke-width": 2}, g);
    const x = c.right + 14;
    const item = (id, label, attrs, y) => {
      const it = el("g", {class: "memory-legend-item", "data-item": id}, g);
      el("line", Object.assign({x1: x, x2: x + 22, y1: y + 6, y2: y + 6}, attrs), it);
      el("text", {x: x + 28, y: y + 10}, it, label);
    };
    item("host-in-use", "host RAM in use", {stroke: "#9c5b1f", "stroke-width": 2}, hostTop + 4);
    if (capacity !== null) item("host-capacity", "capacity " + c.fmtBytes(capacity), {stroke: "#d62728", "stroke-width": 2, "stroke-dasharray": "7 4"}, hostTop + 20);
    else el("text", {x: x, y: hostTop + 30}, g, "capacity: unlimited");
  };

  // The lane in a tooltip: the link or disk and the direction, and the GPU.
  view.where = function (lane, gpu) {
    const dir = lane.kind === "link" ? direction[lane.direction] : null;
    return lane.name + (dir ? " (" + dir + ")" : "") + (gpus > 1 || lane.group === "node" ? "   GPU " + gpu : "");
  };
  // The host panel's and the "all" memory panel's tooltips (null elsewhere).
  view.describe = function (t, y, memTop, memBottom, fmtBytes, fmtTime, rowAt) {
    if (hasHost && y >= hostTop && y <= hostBottom) {
      const s = rowAt(host, t), used = s ? s[1] : 0;
      return "t = " + fmtTime(t) + "\nhost RAM in use " + fmtBytes(used) +
             (capacity === null ? "\ncapacity unlimited" : "\ncapacity " + fmtBytes(capacity) +
              (capacity > 0 ? " (" + (100 * used / capacity).toFixed(1) + "% used)" : ""));
    }
    if (view.selected === "all" && y >= memTop && y <= memBottom)
      return "t = " + fmtTime(t) + view.memory.map((series, g) => { const s = rowAt(series, t); return "\nGPU " + g + " in use " + fmtBytes(s ? s[1] : 0); }).join("");
    return null;
  };

  // The selector: buttons GPU 0 .. N-1 and "all" (gantt_html.cpp writes them), and the
  // selected GPU's own figures beside them.
  const buttons = Array.from(document.querySelectorAll("#gpu-select button"));
  const figures = document.getElementById("gpu-figures");
  const ms = v => v.toFixed(3) + " ms";
  function show() {
    buttons.forEach(b => b.classList.toggle("on", b.getAttribute("data-gpu") === String(view.selected)));
    if (!figures) return;
    const s = info.gpu_summaries;
    if (view.selected === "all") {
      let slowest = 0;
      s.forEach((f, g) => { if (f.time_ms > s[slowest].time_ms) slowest = g; });
      figures.textContent = s.length ? "step time " + ms(info.step_time_ms) + " (GPU " + slowest + " is the slowest)" : "";
    } else {
      const f = s[view.selected];
      figures.textContent = f ? "GPU " + view.selected + ": " + f.status + ", time " + ms(f.time_ms) + ", stall " + ms(f.stall_ms) +
                                ", written " + fmtMiB(f.bytes_written) + ", read " + fmtMiB(f.bytes_read) : "";
    }
  }
  view.select = function (match) {
    if (match) view.selected = match[2] === "all" ? "all" : Math.min(gpus - 1, +match[2]);
    show();
  };
  view.onSelect = function (render) {
    buttons.forEach(b => b.addEventListener("click", () => {
      const v = b.getAttribute("data-gpu");
      view.selected = v === "all" ? "all" : +v;
      show();
      render();
    }));
  };
  return view;
};
