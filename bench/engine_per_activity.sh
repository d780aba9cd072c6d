#!/usr/bin/env bash
# The engine alone per activity: memsim's simulation (bench/engine_run.cpp) against
# the bare SimGrid loop's simulation, each timed by the program itself with its process
# CPU clock around the simulation only; neither start-up nor the workload's generation
# nor the outputs count. Per activity = (CPU at 200000 - CPU at 2000) / 198000, each the
# median of RUNS runs, both programs interleaved (the machine is shared).
#   bench/engine_per_activity.sh [RUNS]     # default 9
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-9}
engine=build/bench/engine_run bare=build/bench/bare_simgrid_loop
cmake --build build --target engine_run bare_simgrid_loop >/dev/null
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
small=2000 big=200000
. bench/uniform_linear_scenarios.sh
write_uniform_linear_scenarios "$out" $small $big
python3 - "$runs" "$engine" "$bare" "$out" $small $big <<'PY'
import re, statistics, subprocess, sys
runs, engine, bare, out, small, big = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]), int(sys.argv[6])
def cpu(cmd):
    text = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return float(re.search(r"simulation ([0-9.]+) s CPU", text).group(1))
times = {key: [] for key in ("engine_small", "engine_big", "bare_small", "bare_big")}
for _ in range(runs):
    times["engine_small"].append(cpu([engine, f"{out}/ul_{small}.yaml"]))
    times["bare_small"].append(cpu([bare, str(small)]))
    times["engine_big"].append(cpu([engine, f"{out}/ul_{big}.yaml"]))
    times["bare_big"].append(cpu([bare, str(big)]))
m = {k: statistics.median(v) for k, v in times.items()}
per = lambda a, b: (b - a) / (big - small) * 1e6
e, b = per(m["engine_small"], m["engine_big"]), per(m["bare_small"], m["bare_big"])
print(f"engine alone (CPU, median of {runs}): bare SimGrid {b:.2f} us, memsim's engine {e:.2f} us per activity "
      f"= {e / b:.2f}x the bare loop (simulation of {big} activities: {m['engine_big']:.3f} s against {m['bare_big']:.3f} s)")
PY
