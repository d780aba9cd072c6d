#!/usr/bin/env bash
# memsim's CPU per activity against the bare SimGrid loop, for one or more memsim
# binaries in the same hyperfine run (the per-activity section of scripts/bench.sh,
# alone, to compare a change with a baseline binary on a loaded machine):
#   bench/per_activity.sh [RUNS] [MEMSIM...]     # default: 5 runs, build/memsim
#   bench/per_activity.sh 5 /work/baseline2/memsim build/memsim
# Each figure is (CPU at 200000 ops - CPU at 2000 ops) / 198000: start-up cancels out;
# workload generation, allocator and event log stay in (a no-swap uniform_linear run).
# Then the engine alone, for this build (bench/engine_per_activity.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
[ $# -gt 0 ] && shift
bins=("$@")
[ ${#bins[@]} -gt 0 ] || bins=(build/memsim)
bare=build/bench/bare_simgrid_loop
cmake --build build --target bare_simgrid_loop >/dev/null
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
small=2000 big=200000
. bench/uniform_linear_scenarios.sh
write_uniform_linear_scenarios "$out" $small $big
cmds=("$bare $small" "$bare $big")
for b in "${bins[@]}"; do cmds+=("$b run $out/ul_$small.yaml -q --out $out/r" "$b run $out/ul_$big.yaml -q --out $out/r"); done
hyperfine -N --warmup 1 --runs "$runs" --export-json "$out/pa.json" "${cmds[@]}" >/dev/null 2>&1
python3 - "$out/pa.json" $small $big "${bins[@]}" <<'PY'
import json, sys
path, small, big, bins = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4:]
cpu = [r["user"] + r["system"] for r in json.load(open(path))["results"]]
per = lambda a, b: (b - a) / (big - small) * 1e6
bare = per(cpu[0], cpu[1])
print(f"bare SimGrid loop: {bare:.2f} us CPU per activity")
for i, b in enumerate(bins):
    m = per(cpu[2 + 2 * i], cpu[3 + 2 * i])
    print(f"{b}: {m:.2f} us CPU per activity = {m / bare:.2f}x the bare loop")
PY
# The engine alone (this build's): no start-up, generation or outputs in either figure.
bench/engine_per_activity.sh "$runs"
