#!/usr/bin/env bash
# The node model's cost (docs/tiers.md), with hyperfine:
#   1. a single-GPU run that sets no node key, this build against a baseline build given
#      as BASELINE=path/to/memsim (default ../main/build/memsim): the ratio must stay
#      near 1 (the issue asks within 5%);
#   2. the same run with 1, 2, 4 and 8 GPUs behind one switch, with host RAM and a disk
#      (8 GPUs should take well under a second).
# Needs ../shared/profiles (MobilenetV2). Not a test: the machine is shared, read ratios.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v hyperfine >/dev/null || { echo "bench_tiers.sh: hyperfine is missing; run scripts/setup.sh" >&2; exit 1; }
baseline=${BASELINE:-../main/build/memsim}
runs=${RUNS:-10}
[ -d ../shared/profiles/MobilenetV2 ] || { echo "bench_tiers.sh: ../shared/profiles/MobilenetV2 is missing" >&2; exit 1; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
single=(run scenarios/mobilenetv2_b4.yaml --set policy.allocator=os --set platform.memory.budget_ratio=0.6 --set policy.swap.mode=async
        --set policy.swap.select=budget --out "$out/run")
mean() { /usr/bin/python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['results'][0]['mean'])" "$1"; }
hyperfine -N --warmup 2 --runs "$runs" --export-json "$out/new.json" "build/memsim ${single[*]}" >/dev/null
hyperfine -N --warmup 2 --runs "$runs" --export-json "$out/base.json" "$baseline ${single[*]}" >/dev/null
new=$(mean "$out/new.json"); base=$(mean "$out/base.json")
printf 'single GPU, no node key: this build %.4f s, baseline %.4f s, ratio %.3f\n' "$new" "$base" \
  "$(/usr/bin/python3 -c "print($new / $base)")"
for gpus in 1 2 4 8; do
  node=("${single[@]}" --set platform.gpus=$gpus --set platform.host.link.bandwidth=25GB/s
        --set platform.host.memory=64MiB --set platform.gpus_per_switch=8 --set platform.switch.bandwidth=25GB/s
        --set platform.disk.bandwidth=3.2GB/s --set policy.swap.placement=host_then_disk --set policy.swap.path=direct)
  hyperfine -N --warmup 1 --runs "$runs" --export-json "$out/g$gpus.json" "build/memsim ${node[*]}" >/dev/null
  printf '%d GPUs, host RAM + disk: %.4f s\n' "$gpus" "$(mean "$out/g$gpus.json")"
done
