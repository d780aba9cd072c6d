#!/usr/bin/env bash
# End-to-end speed of `memsim run` (process start, profile load, SimGrid simulation,
# summary.json), measured with hyperfine (warm-up runs, then mean and spread).
# Target (issue 3): MobilenetV2 batch 4 with async swapping <= 50 ms on 2 cores.
#   scripts/bench.sh            # all cases
#   scripts/bench.sh --quick    # fewer runs
# Cases on ../shared/profiles are skipped, loudly, when ../shared is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x build/memsim ] || scripts/setup.sh --no-run >/dev/null
command -v hyperfine >/dev/null || { echo "bench.sh: hyperfine is missing; run scripts/setup.sh" >&2; exit 1; }

runs=20
[ "${1:-}" = "--quick" ] && runs=5
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

cases=(
  "example_pool|scenarios/example.yaml|"
  "example_async|scenarios/swap_modes.yaml|--set policy.swap.mode=async"
)
if [ -d ../shared/profiles ]; then
  mb="scenarios/mobilenetv2_b4.yaml"
  cases+=(
    "mobilenetv2_b4_none|$mb|"
    "mobilenetv2_b4_async|$mb|--set policy.swap.mode=async --set policy.swap.select=feature_maps"
    "mobilenetv2_b4_async_reference|$mb|--set policy.swap.mode=async --set policy.swap.select=feature_maps --set policy.semantics=reference"
    "mobilenetv2_b16_async|$mb|--set workload.batch=16 --set policy.swap.mode=async --set policy.swap.select=feature_maps"
    "squeezenet_b4_async|$mb|--set workload.profile=../shared/profiles/Squeezenet --set policy.swap.mode=async --set policy.swap.select=feature_maps"
  )
else
  echo "############################################################" >&2
  echo "# WARNING: ../shared is missing: real-profile cases skipped #" >&2
  echo "############################################################" >&2
fi

printf '%-32s %10s %10s %12s %14s\n' case mean_ms stddev_ms activities activities/s
for c in "${cases[@]}"; do
  IFS='|' read -r name scenario sets <<<"$c"
  cmd="build/memsim run $scenario $sets --out $out/$name"
  # shellcheck disable=SC2086
  build/memsim run $scenario $sets --out "$out/$name" >/dev/null
  hyperfine -N --warmup 3 --runs "$runs" --export-json "$out/$name.json" "$cmd" >/dev/null 2>&1
  python3 - "$out/$name.json" "$out/$name/summary.json" "$name" <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))["results"][0]
s = json.load(open(sys.argv[2]))
mean, sd = t["mean"] * 1e3, t["stddev"] * 1e3
acts = s.get("activities", 0)
print(f"{sys.argv[3]:<32} {mean:10.1f} {sd:10.1f} {acts:12d} {acts / t['mean']:14.0f}")
PY
done
# The floor: starting a process linked with Debian's libsimgrid (it loads ns-3) and exiting.
hyperfine -N --warmup 3 --runs "$runs" --export-json "$out/startup.json" "build/memsim --help" >/dev/null 2>&1
python3 -c "import json,sys; t=json.load(open(sys.argv[1]))['results'][0]; print(f\"{'startup_floor (memsim --help)':<32} {t['mean']*1e3:10.1f} {t['stddev']*1e3:10.1f}\")" "$out/startup.json"
echo "($(nproc) cores, $runs runs per case after 3 warm-ups; activities/s = SimGrid activities per second of wall time, end to end)"
