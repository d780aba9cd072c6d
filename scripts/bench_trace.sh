#!/usr/bin/env bash
# Tracing time per model (from each log's sidecar) next to memsim's load + simulate time
# on the traced log with dtr at 50% of its peak (published DTR semantics), as a markdown
# table. With --trace, first traces the models of docs/tracing.md into DIR (slow).
#   scripts/bench_trace.sh [--trace] DIR
set -euo pipefail
cd "$(dirname "$0")/.."
memsim=${MEMSIM:-build/memsim}
[ -x "$memsim" ] || { echo "bench_trace.sh: $memsim is missing; run scripts/setup.sh (or set MEMSIM)" >&2; exit 1; }
trace=0
if [ "${1:-}" = "--trace" ]; then trace=1; shift; fi
dir=${1:?usage: scripts/bench_trace.sh [--trace] DIR}
if [ $trace = 1 ]; then
  mkdir -p "$dir"
  while read -r model batch name; do
    "$memsim" trace "$model" --batch "$batch" --out "$dir/$name.log"
  done <<'MODELS'
resnet18 8 resnet18_b8
mobilenet_v2 8 mobilenet_v2_b8
mobilenet_v3_small 8 mobilenet_v3_small_b8
squeezenet1_0 8 squeezenet1_0_b8
efficientnet_b0 4 efficientnet_b0_b4
resnet50 4 resnet50_b4
densenet121 4 densenet121_b4
vit_b_16 2 vit_b_16_b2
tools/trace/examples/language_models.py:lstm_lm 8 lstm_lm_b8
MODELS
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "| log | ops | tracing (s) | memsim run, dtr at 50% (s, median of 3) | ratio |"
echo "| --- | --- | --- | --- | --- |"
for log in "$dir"/*.log; do
  cat >"$work/s.yaml" <<YAML
name: bench_trace
workload: {dtr_log: $(realpath "$log")}
platform: {memory: {budget_ratio: 0.5}}
policy: {allocator: os, semantics: dtr, recompute: {heuristic: dtr}}
YAML
  hyperfine --runs 3 --warmup 1 -N -i --export-json "$work/h.json" "$memsim run $work/s.yaml -q --out $work/out" >/dev/null 2>&1
  python3 - "$log" "$work/h.json" <<'PY'
import json, os, sys
log, bench = sys.argv[1:]
meta = json.load(open(log + ".meta.json"))
run = json.load(open(bench))["results"][0]["median"]
print(f"| {os.path.basename(log)} | {meta['ops']} | {meta['tracing_seconds']:.1f} | {run:.3f} | {meta['tracing_seconds'] / run:.0f}x |")
PY
done
