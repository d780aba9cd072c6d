#!/usr/bin/env bash
# The gap of every recomputation policy to the optimal plan (docs/optimal.md, "The gap
# of each policy"): `memsim compare` restricted to the recompute heuristics and planners,
# on each workload at 50%..90% of its plan-free peak (os allocator, simulated semantics),
# printed as a Markdown table: per policy its time over the optimal plan's, and what is
# proven about the optimum. Needs ../shared for MobilenetV2.
# Usage: scripts/optimal_gaps.sh [OUT_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-out/optimal_gaps}"
mkdir -p "$out"
cmake --build build --target memsim >/dev/null
families="dtr,dtr_eq,dtr_local,msps,lru,size,random,megengine,msps_on_demand,capuchin,sublinear,optimal"
cols=(dtr dtr_eq dtr_local msps lru size random megengine msps_on_demand capuchin sublinear)

# name | scenario | extra --set
workloads=(
  "chain n=50|synthetic: chain, n: 50"
  "uniform_linear n=100|synthetic: uniform_linear, n: 100"
  "branching n=13|synthetic: branching, n: 13"
  "branching n=40|synthetic: branching, n: 40"
  "traced ResNet-18 b2|dtr_log: examples/traced/resnet18_b2.log"
  "traced MobileNetV2 b8|dtr_log: examples/traced/mobilenet_v2_b8.log"
  "MobilenetV2 b4 (shared)|profile: ../shared/profiles/MobilenetV2, batch: 4"
)
printf '| workload | budget | optimal | bound (ms) |'
for c in "${cols[@]}"; do printf ' %s |' "$c"; done
printf '\n| --- | --- | --- | --- |'
for c in "${cols[@]}"; do printf ' --- |'; done
printf '\n'
for entry in "${workloads[@]}"; do
  name="${entry%%|*}"
  workload="${entry#*|}"
  scenario="$out/$(echo "$name" | tr -c 'A-Za-z0-9' _).yaml"
  printf 'name: gaps\nworkload: {%s}\npolicy: {allocator: os}\n' "$workload" > "$scenario"
  for ratio in 0.5 0.6 0.7 0.8 0.9; do
    report=$(build/memsim compare "$scenario" --policies "$families" --set "platform.memory.budget_ratio=$ratio" \
               --jobs 2 --out "$out/$(basename "$scenario" .yaml)_$ratio" 2>/dev/null || true)
    status=$(sed -n 's/^optimal planner: \(.*\) by \(.*\); no recomputation plan of its class runs in less than \([0-9.]*\) ms.*/\1 (\2)|\3/p' <<<"$report")
    if [ -z "$status" ]; then
      why=$(grep -m1 '^recompute planner optimal: ' <<<"$report" | sed 's/^recompute planner optimal: //' | cut -c1-60)
      status="${why:-no result}|-"
    fi
    printf '| %s | %s | %s | %s |' "$name" "$ratio" "${status%%|*}" "${status#*|}"
    for c in "${cols[@]}"; do
      cell=$(sed -n "s/^$c: \(.*\) over optimal$/\1/p" <<<"$report")
      if [ -z "$cell" ]; then
        st=$(grep -E "^ +- +recompute (planner )?$c " <<<"$report" | awk '{print $0}' | grep -oE ' (oom|thrash|error|unsolved|infeasible) ' | head -1 | tr -d ' ')
        cell="${st:--}"
      fi
      printf ' %s |' "$cell"
    done
    printf '\n'
  done
done
