#!/usr/bin/env bash
# The published DTR simulator's h_DTR table (../shared/dtr-logs/README.md) next to memsim's:
# every shared DTR log at budget ratios 0.1..1.0 in `policy.semantics: dtr` (heuristic dtr,
# thrash when recomputation exceeds the compute), run as one `memsim sweep`. Prints a
# markdown table: a bold cell is memsim equal to the published value (4 decimals, or the
# same OOM / thrash), otherwise "memsim (published)".
#   scripts/compare_dtr_published.sh [--jobs N]
set -euo pipefail
cd "$(dirname "$0")/.."
memsim=${MEMSIM:-build/memsim}
[ -x "$memsim" ] || { echo "compare_dtr_published.sh: $memsim is missing; run scripts/setup.sh (or set MEMSIM)" >&2; exit 1; }
logs=../shared/dtr-logs
[ -f "$logs/README.md" ] || { echo "compare_dtr_published.sh: $logs is missing" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
{
  echo "name: dtr_published"
  echo "workload: {dtr_log: $(realpath "$(ls "$logs"/*.log | head -1)")}"
  echo "platform: {memory: {budget_ratio: 1.0}}"
  echo "policy: {allocator: os, semantics: dtr, recompute: {heuristic: dtr, max_overhead: 1.0}}"
  echo "sweep:"
  echo "  workload.dtr_log:"
  for f in "$logs"/*.log; do echo "    - $(realpath "$f")"; done
  echo "  platform.memory.budget_ratio: [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0]"
} >"$work/sweep.yaml"
"$memsim" sweep "$work/sweep.yaml" --out "$work/out" "$@" >"$work/sweep.log" 2>&1 || { cat "$work/sweep.log" >&2; exit 1; }
python3 - "$logs/README.md" "$work/out/results.csv" <<'PY'
import csv, os, sys
readme, results = sys.argv[1:]
lines = open(readme).read().splitlines()
header = next(i for i, l in enumerate(lines) if l.startswith("| ratio |"))
models = [c.strip() for c in lines[header].strip("|").split("|")[1:]]
published = {}
for l in lines[header + 2:]:
    if not l.startswith("|"): break
    cells = [c.strip() for c in l.strip("|").split("|")]
    for m, v in zip(models, cells[1:]): published[(m, float(cells[0]))] = v
ours = {}
for r in csv.DictReader(open(results)):
    name = os.path.basename(r["workload.dtr_log"])
    model = max((m for m in models if name.startswith(m)), key=len)
    ratio = float(r["platform.memory.budget_ratio"])
    status = r["status"]
    ours[(model, ratio)] = (f"{float(r['time_ms']) / float(r['compute_ms']):.4f}" if status == "ok"
                            else {"oom": "OOM"}.get(status, status))
ratios = sorted({k[1] for k in published})
print("| ratio | " + " | ".join(models) + " |")
print("| --- |" + " --- |" * len(models))
same = 0
for ratio in ratios:
    cells = []
    for m in models:
        o, p = ours[(m, ratio)], published[(m, ratio)]
        same += o == p
        cells.append(f"**{o}**" if o == p else f"{o} ({p})")
    print(f"| {ratio} | " + " | ".join(cells) + " |")
print(f"\n{same} of {len(published)} cells equal to the published table")
PY
