#!/usr/bin/env bash
# Regenerates the tables of docs/tracing.md from the shipped traced logs (examples/traced)
# and the memsim built here: fidelity (sidecars + memsim info), dtr at 50..90%, the budget
# trade-off of scenarios/traced_budget.yaml, and swapping on the phone's flash against
# NVMe. Each table replaces the text between its markers in docs/tracing.md
# (<!-- tracing_tables.sh: NAME --> ... <!-- end tracing_tables.sh: NAME -->), and the
# stamp names the commit the numbers were made at. With --check, nothing is written: it
# exits 1 and prints the difference when the doc's tables are not what this build gives.
#   scripts/tracing_tables.sh [--check] [--jobs N]
set -euo pipefail
cd "$(dirname "$0")/.."
memsim=${MEMSIM:-build/memsim}
python=${MEMSIM_PYTHON:-/usr/bin/python3}
[ -x "$memsim" ] || { echo "tracing_tables.sh: $memsim is missing; run scripts/setup.sh (or set MEMSIM)" >&2; exit 1; }
check=0
jobs=()
while [ $# -gt 0 ]; do
  case "$1" in
    --check) check=1 ;;
    --jobs) jobs=(--jobs "$2"); shift ;;
    *) echo "usage: scripts/tracing_tables.sh [--check] [--jobs N]" >&2; exit 1 ;;
  esac
  shift
done
logs=(examples/traced/resnet18_b2.log examples/traced/mobilenet_v2_b8.log)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export MEMSIM="$memsim"

sweep() {  # sweep NAME YAML...: runs the scenario written to $work/NAME.yaml
  "$memsim" sweep "$work/$1.yaml" --out "$work/$1" "${jobs[@]}" >"$work/$1.log" 2>&1 || { cat "$work/$1.log" >&2; exit 1; }
}
list() { for log in "${logs[@]}"; do echo "    - $(realpath "$log")"; done; }

"$python" -m tools.trace.report fidelity "${logs[@]}" >"$work/fidelity.md"

cat >"$work/dtr.yaml" <<EOF
name: traced_dtr
workload: {dtr_log: $(realpath "${logs[0]}")}
platform: {memory: {budget_ratio: 0.5}}
policy: {allocator: os, semantics: dtr, recompute: {heuristic: dtr}}
sweep:
  workload.dtr_log:
$(list)
  platform.memory.budget_ratio: [0.5, 0.6, 0.7, 0.8, 0.9]
EOF
sweep dtr
"$python" -m tools.trace.report dtr "$work/dtr/results.csv" >"$work/dtr.md"

: >"$work/budget.md"
for log in "${logs[@]}"; do
  name=$(basename "$log" .log)
  "$memsim" sweep scenarios/traced_budget.yaml --set "workload.dtr_log=$log" --out "$work/budget_$name" "${jobs[@]}" \
    >"$work/budget_$name.log" 2>&1 || { cat "$work/budget_$name.log" >&2; exit 1; }
  { echo "$name:"; echo; "$python" -m tools.trace.report budget "$work/budget_$name/results.csv"; echo; } >>"$work/budget.md"
done

cat >"$work/disk.yaml" <<EOF
name: traced_disk
workload: {dtr_log: $(realpath "${logs[0]}")}
platform: {name: phone, disk: {bandwidth: 104094472B/4.452s}, memory: {budget_ratio: 0.5}}
policy: {allocator: os, swap: {mode: async, select: budget}}
sweep:
  workload.dtr_log:
$(list)
  platform.disk.bandwidth: [104094472B/4.452s, 3.2GB/s]
  platform.memory.budget_ratio: [0.5, 0.7, 0.9]
EOF
sweep disk
"$python" -m tools.trace.report disk "$work/disk/results.csv" >"$work/disk.md"

commit=$(git rev-parse --short HEAD)
dirty=$(git status --porcelain -- sim models tools/trace examples/traced scenarios | head -1)
stamp="Made by \`scripts/tracing_tables.sh\` at commit $commit${dirty:+ (with uncommitted changes)} from the shipped logs in \`examples/traced\`."
echo "$stamp" >"$work/stamp.md"

"$python" - "$work" "$check" <<'PY'
import difflib, os, re, sys
work, check = sys.argv[1], sys.argv[2] == "1"
path = "docs/tracing.md"
text = open(path).read()
new = text
for name in ("stamp", "fidelity", "dtr", "budget", "disk"):
    begin, end = f"<!-- tracing_tables.sh: {name} -->", f"<!-- end tracing_tables.sh: {name} -->"
    if begin not in new or end not in new:
        sys.exit(f"tracing_tables.sh: {path} has no {begin} ... {end} markers")
    table = open(os.path.join(work, f"{name}.md")).read().strip()
    new = re.sub(re.escape(begin) + ".*?" + re.escape(end), lambda _: f"{begin}\n{table}\n{end}", new, flags=re.S)
if check:
    strip = lambda s: re.sub(r"<!-- tracing_tables.sh: stamp -->.*?<!-- end tracing_tables.sh: stamp -->", "", s, flags=re.S)
    if strip(new) != strip(text):
        sys.stdout.writelines(difflib.unified_diff(strip(text).splitlines(True), strip(new).splitlines(True), path, "regenerated"))
        sys.exit(1)
    print(f"{path}: the tables are what this build gives")
else:
    open(path, "w").write(new)
    print(f"{path}: tables regenerated ({open(os.path.join(work, 'stamp.md')).read().strip()})")
PY
