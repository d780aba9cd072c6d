// gantt.html's tooltips; embedded before gantt.js at build time (cmake/embed_text.cmake).
// Hovering a bar or a marker shows what it did and the journey of its tensor (written,
// read, stalls, recomputations, instant events), and highlights every bar and marker of
// that journey; hovering the memory panel shows the bytes at that time. gantt.js calls
// window.memsimGanttTooltip(page) once with what it draws from; page.now() gives the
// state of the latest render.
window.memsimGanttTooltip = function (page) {
  "use strict";
  const data = page.data, node = page.node, svg = page.svg, tip = page.tip, actGpu = page.actGpu, markGpu = page.markGpu;
  const acts = data.activities, marks = data.marks, lanes = data.lanes, markKinds = data.mark_kinds, caching = page.caching;
  const fmtTime = page.fmtTime, fmtBytes = page.fmtBytes, LEFT = page.LEFT, RIGHT = page.RIGHT, svgX = page.svgX, svgY = page.svgY, T = page.T;
  const tensorsOf = a => (a[5] ? a[5].split(" ").map(Number) : []);
  const subjectOf = a => (a[7] >= 0 ? [a[7]] : tensorsOf(a));
  // A tensor's journey: every activity and mark that involves it (on a node, on its GPU:
  // the replicas' tensors share ids). Keyed by tensor * 128 + GPU (at most 64 GPUs).
  const journeyActs = new Map(), journeyMarks = new Map();
  const addTo = (map, t, i) => { if (!map.has(t)) map.set(t, []); map.get(t).push(i); };
  acts.forEach((a, i) => { const ts = new Set(tensorsOf(a)); if (a[7] >= 0) ts.add(a[7]); ts.forEach(t => addTo(journeyActs, t * 128 + actGpu(a), i)); });
  marks.forEach((m, i) => { if (m[3] >= 0) addTo(journeyMarks, m[3] * 128 + markGpu(m), i); });

  function rowAt(series, t) {
    let lo = 0, hi = series.length;
    while (lo < hi) { const mid = (lo + hi) >> 1; if (series[mid][0] <= t) lo = mid + 1; else hi = mid; }
    return lo > 0 ? series[lo - 1] : null;
  }
  // One line per tensor: what happened to it over the run.
  function journeyText(t, gpu) {
    const name = data.tensor_names ? data.tensor_names[t] : null, key = t * 128 + (gpu || 0);
    const parts = [];
    const count = test => (journeyActs.get(key) || []).filter(i => test(lanes[acts[i][0]]));
    const swap = dir => lane => lane.kind === "swap" && lane.direction === dir;
    const w = count(swap("out")), r = count(swap("in")), s = count(l => l.id === "stall"), rc = count(l => l.id === "recompute");
    if (w.length) parts.push("written at " + w.map(i => fmtTime(acts[i][1])).join(", "));
    if (r.length) parts.push("read at " + r.map(i => fmtTime(acts[i][1])).join(", "));
    if (s.length) parts.push(s.length + " stall(s), " + fmtTime(s.reduce((sum, i) => sum + acts[i][2] - acts[i][1], 0)));
    if (rc.length) parts.push("recomputed " + rc.length + "x");
    const happened = {evict_to_disk: 'evicted, written out', drop: 'dropped', cancel_write: 'write cancelled'};
    for (const mi of journeyMarks.get(key) || []) {
      const id = markKinds[marks[mi][0]].id;
      parts.push((happened[id] || id) + " at " + fmtTime(marks[mi][1]));
    }
    return parts.length ? "\ntensor " + (name !== null && name !== undefined ? name : "#" + t) + ": " + parts.join("; ") : "";
  }
  function highlight(tensors, gpu) {
    const wanted = new Set(), wantedMarks = new Set();
    for (const t of tensors) {
      (journeyActs.get(t * 128 + (gpu || 0)) || []).forEach(i => wanted.add(i));
      (journeyMarks.get(t * 128 + (gpu || 0)) || []).forEach(i => wantedMarks.add(i));
    }
    svg.querySelectorAll(".hl").forEach(e => e.classList.remove("hl"));
    if (!tensors.length) { svg.classList.remove("focus"); return; }
    svg.classList.add("focus");
    const now = page.now();
    wanted.forEach(i => { const e = now.drawnBars.get(i); if (e) e.classList.add("hl"); });
    wantedMarks.forEach(i => { const e = now.drawnMarks.get(i); if (e) e.classList.add("hl"); });
  }
  function describe(target, e) {
    if (target && target.classList.contains("bar")) {
      const a = acts[+target.getAttribute("data-i")];
      const subject = subjectOf(a).slice(0, 3), gpu = actGpu(a);
      return {tensors: subjectOf(a), gpu: gpu, text: data.labels[a[4]] + "\n" + (node ? node.where(lanes[a[0]], gpu) : lanes[a[0]].name) +
             (a[3] >= 0 ? "   op " + a[3] : "") +
             (a[5] ? "\ntensors " + a[5] : "") + (a[6] ? "\n" + fmtBytes(a[6]) + " (" + a[6] + " B)" : "") +
             "\nstart " + fmtTime(a[1]) + "   duration " + fmtTime(a[2] - a[1]) + subject.map(t => journeyText(t, gpu)).join("")};
    }
    if (target && target.classList.contains("mark")) {
      const mk = marks[+target.getAttribute("data-m")];
      return {tensors: mk[3] >= 0 ? [mk[3]] : [], gpu: markGpu(mk), text: data.labels[mk[5]] + "\n" + markKinds[mk[0]].name +
             (node && node.gpus > 1 ? "   GPU " + markGpu(mk) : "") + (mk[2] >= 0 ? "   op " + mk[2] : "") +
             "\nat " + fmtTime(mk[1]) + (mk[3] >= 0 ? journeyText(mk[3], markGpu(mk)) : "")};
    }
    if (target && target.classList.contains("mark-agg")) {
      const first = marks[+target.getAttribute("data-first")], last = marks[+target.getAttribute("data-last")];
      const bytes = +target.getAttribute("data-bytes");
      return {tensors: [], text: target.getAttribute("data-count") + " " + markKinds[first[0]].name + " (merged: closer than 4 px; zoom in)\n" +
             fmtTime(first[1]) + " \u2013 " + fmtTime(last[1]) + (bytes ? "\n" + fmtBytes(bytes) + " in all" : "")};
    }
    if (target && target.classList.contains("agg")) {
      const first = acts[+target.getAttribute("data-first")], last = acts[+target.getAttribute("data-last")];
      const bytes = +target.getAttribute("data-bytes");
      return {tensors: [], text: target.getAttribute("data-count") + " activities (merged: narrower than a pixel; zoom in)\n" +
             data.labels[first[4]] + " \u2026 " + data.labels[last[4]] +
             "\n" + fmtTime(+target.getAttribute("data-t0")) + " \u2013 " + fmtTime(+target.getAttribute("data-t1")) +
             "   busy " + fmtTime(+target.getAttribute("data-busy")) + (bytes ? "\n" + fmtBytes(bytes) : "")};
    }
    const x = svgX(e), y = svgY(e), {width, memTop, memBottom, mem, kinds} = page.now();
    if (node && x >= LEFT && x <= width - RIGHT) {
      const text = node.describe(T(x), y, memTop, memBottom, fmtBytes, fmtTime, rowAt);
      if (text !== null) return {tensors: [], text: text};
    }
    if (y >= memTop && y <= memBottom && x >= LEFT && x <= width - RIGHT) {
      const t = T(x), s = rowAt(mem, t);
      let text = "t = " + fmtTime(t) + (caching ? "\nreserved " : "\nin use ") + fmtBytes(s ? s[1] : 0) +
                 (caching ? "\nallocated " + fmtBytes(s ? s[3] : 0) : "") + "\nlive " + fmtBytes(s ? s[2] : 0);
      const k = kinds ? rowAt(kinds.rows, t) : null;
      if (k) kinds.names.forEach((n, j) => { if (k[j + 1]) text += "\n  " + n + " " + fmtBytes(k[j + 1]); });
      return {tensors: [], text: text};
    }
    return null;
  }
  svg.addEventListener("mousemove", e => {
    const found = page.now().drag ? null : describe(e.target.closest ? e.target.closest(".bar,.agg,.mark,.mark-agg") : null, e);
    highlight(found ? found.tensors : [], found ? found.gpu : 0);
    if (!found) { tip.style.display = "none"; return; }
    tip.textContent = found.text;
    tip.style.display = "block";
    tip.style.left = Math.min(e.clientX + 14, window.innerWidth - tip.offsetWidth - 4) + "px";
    tip.style.top = Math.min(e.clientY + 14, window.innerHeight - tip.offsetHeight - 4) + "px";
  });
  svg.addEventListener("mouseleave", () => { tip.style.display = "none"; highlight([]); });
};
