#!/usr/bin/env bash
# The synthetic GPT at scale (docs/gpu_model.md, "GPT-3 at scale"): wall time and peak RSS
# (GNU time -v) of `memsim info` and `memsim run` on scenarios/gpt3_a100.yaml (GPT-3,
# 174.6 B parameters, timed by the device model on an A100 80GB), what the step needs
# against the GPU's 80 GiB, the largest GPT-3 family shapes that fit, and `memsim compare`
# at an 80 GiB budget on GPT-3 2.7B at batch 4 (139 GiB with no policy), swapping to host
# RAM over PCIe 4.0 (25 GB/s).
#   scripts/bench_gpt.sh
#   MEMSIM=/path/to/memsim scripts/bench_gpt.sh
set -euo pipefail
cd "$(dirname "$0")/.."
memsim=${MEMSIM:-build/memsim}
[ -x "$memsim" ] || { echo "bench_gpt.sh: $memsim missing; build first" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "bench_gpt.sh: needs GNU time (/usr/bin/time)" >&2; exit 1; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
scenario=scenarios/gpt3_a100.yaml

measure() {  # label command...: prints "label: wall s, max RSS MiB"
  local label=$1; shift
  /usr/bin/time -v "$@" > "$out/stdout" 2> "$out/time" || { cat "$out/time" >&2; exit 1; }
  awk -v label="$label" '/Elapsed \(wall clock\)/ {wall=$NF} /Maximum resident set size/ {rss=$NF}
    END {printf "%-28s wall %s, max RSS %.1f MiB\n", label ":", wall, rss / 1024}' "$out/time"
}

echo "== GPT-3 (96 layers, h 12288, 96 heads, s 2048, V 51200, mixed, batch 1) on a100_80gb"
measure "memsim info (build + facts)" "$memsim" info "$scenario" --json
cp "$out/stdout" "$out/info.json"
measure "memsim run (simulation)" "$memsim" run "$scenario" --out "$out/run" -q
python3 - "$out/info.json" "$out/run/summary.json" <<'PY'
import json, sys
info, run = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
gib = 2 ** 30
print(f"operators {info['ops']}, tensors {info['tensors']}, parameters {info['parameters'] / 1e9:.1f} B, "
      f"FLOPs {info['flops']:.3e}")
print(f"step time (roofline) {run['time_ms'] / 1e3:.2f} s; no-policy peak {run['peak_bytes'] / gib:.0f} GiB "
      f"vs {info['gpu_memory_bytes'] / gib:.0f} GiB of GPU memory: fits = {info['fits_gpu_memory']}")
for role, b in sorted(info["bytes_by_role"].items()):
    print(f"  {role:16} {b / gib:10.1f} GiB")
print(f"  activations alive at the forward's end {info['forward_end_activation_bytes'] / gib:.1f} GiB")
PY

echo "== What fits in 80 GiB (no policy; mixed precision, s 2048, batch 1)"
for shape in "2.7B 32 2560 32" "6.7B 32 4096 32"; do
  read -r label layers hidden heads <<< "$shape"
  for ck in none selective full; do
    "$memsim" info "$scenario" --json --set workload.layers="$layers" --set workload.hidden="$hidden" \
      --set workload.heads="$heads" --set workload.checkpointing="$ck" > "$out/shape.json"
    python3 - "$out/shape.json" "$label" "$ck" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
print(f"  GPT-3 {sys.argv[2]:5} checkpointing {sys.argv[3]:9} peak {d['oracle_peak_bytes'] / 2**30:6.1f} GiB "
      f"step {d['compute_ms']:6.0f} ms  fits: {d['fits_gpu_memory']}")
PY
  done
done

echo "== compare at 80 GiB: GPT-3 2.7B, batch 4, swapping to host RAM over PCIe 4.0"
measure "memsim compare" "$memsim" compare "$scenario" -j 2 --out "$out/compare" \
  --policies none,async,dtr,msps,sublinear,capuchin,hybrid \
  --set workload.layers=32 --set workload.hidden=2560 --set workload.heads=32 --set workload.batch=4 \
  --set platform.memory.budget=80GiB --set 'platform.disk={bandwidth: 25GB/s, latency: 10us}'
sed -n '/^compare:/,/^time_ms:/p' "$out/stdout"
