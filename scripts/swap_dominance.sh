#!/usr/bin/env bash
# The swap dominance grid of docs/swap.md ("Dominance"): both shared profiles at batches 4
# and 16, budgets 40..100% of the os no-swap peak and no budget, the five shipped disks,
# swap-only (sync, semi_sync, async with each prefetch rule), recompute-only (dtr) and the
# hybrid, all with `memsim sweep`. Prints the properties' tables (markdown) from the runs.
# Usage: scripts/swap_dominance.sh [OUT_DIR] [PROFILES] [BATCHES]
#   defaults: out/swap_dominance, "MobilenetV2 Squeezenet", "4 16"
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-out/swap_dominance}
profiles=${2:-"MobilenetV2 Squeezenet"}
batches=${3:-"4 16"}
memsim=${MEMSIM:-build/memsim}
mkdir -p "$out"

# The five shipped disks (configs/*.yaml), inline: nvme_datacenter's own 40 GB budget
# would clash with budget_ratio.
disks='
    - {bandwidth: 104094472B/4.452s}
    - {write_bandwidth: 315.22MiB/s, read_bandwidth: 797.91MiB/s}
    - {write_bandwidth: 121.54MiB/s, read_bandwidth: 263.05MiB/s}
    - {bandwidth: 3.2GB/s, read_latency: 12us, write_latency: 16us}
    - {bandwidth: 25GB/s, latency: 10us}'
grep -q "121.54MiB/s" configs/phone_redmi.yaml || { echo "configs/phone_redmi.yaml changed: update $0" >&2; exit 1; }

for profile in $profiles; do
  for batch in $batches; do
    name="${profile}_b${batch}"
    cat > "$out/$name-budget.yaml" <<YAML
name: $name-budget
workload: {profile: ../shared/profiles/$profile, batch: $batch}
platform: {name: grid, disk: {bandwidth: 104094472B/4.452s}, memory: {budget_ratio: 0.6}}
policy: {allocator: os}
sweep:
  platform.disk:$disks
  platform.memory.budget_ratio: [0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0]
  policy:
    - {allocator: os, swap: {mode: sync, select: budget}}
    - {allocator: os, swap: {mode: semi_sync, select: budget}}
    - {allocator: os, swap: {mode: async, select: budget, prefetch: budget}}
    - {allocator: os, swap: {mode: async, select: budget, prefetch: eager}}
    - {allocator: os, swap: {mode: async, select: budget, prefetch: just_in_time}}
    - {allocator: os, swap: {mode: async, select: budget, prefetch: {lead_ops: 10}}}
    - {allocator: os, swap: {mode: async, select: budget, prefetch: {lead_ops: 50}}}
    - {allocator: os, recompute: {heuristic: dtr}}
    - {allocator: os, hybrid: true, swap: {mode: async}, recompute: {heuristic: dtr}}
YAML
    cat > "$out/$name-nobudget.yaml" <<YAML
name: $name-nobudget
workload: {profile: ../shared/profiles/$profile, batch: $batch}
platform: {name: grid, disk: {bandwidth: 104094472B/4.452s}}
policy: {allocator: os}
sweep:
  platform.disk:$disks
  policy:
    - {allocator: os, swap: {mode: sync, select: feature_maps}}
    - {allocator: os, swap: {mode: semi_sync, select: feature_maps}}
    - {allocator: os, swap: {mode: async, select: feature_maps, prefetch: budget}}
    - {allocator: os, swap: {mode: async, select: feature_maps, prefetch: eager}}
    - {allocator: os, swap: {mode: async, select: feature_maps, prefetch: just_in_time}}
    - {allocator: os, swap: {mode: async, select: feature_maps, prefetch: {lead_ops: 10}}}
    - {allocator: os, swap: {mode: async, select: feature_maps, prefetch: {lead_ops: 50}}}
    - {allocator: os, swap: {mode: sync, select: hideable}}
    - {allocator: os, swap: {mode: semi_sync, select: hideable}}
    - {allocator: os, swap: {mode: async, select: hideable, prefetch: budget}}
YAML
    for kind in budget nobudget; do
      "$memsim" sweep "$out/$name-$kind.yaml" --out "$out/$name-$kind" -j "${JOBS:-2}" > "$out/$name-$kind.log"
    done
  done
done
/usr/bin/python3 scripts/swap_dominance_table.py "$out"
