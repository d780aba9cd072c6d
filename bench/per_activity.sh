#!/usr/bin/env bash
# memsim's CPU per activity against the bare SimGrid loop, for one or more memsim
# binaries in the same run (the per-activity section of scripts/bench.sh,
# alone, to compare a change with a baseline binary on a loaded machine):
#   bench/per_activity.sh [RUNS] [MEMSIM...]     # default: 5 runs, build/memsim
#   bench/per_activity.sh 5 /work/baseline2/memsim build/memsim
# Each figure is (CPU at 200000 ops - CPU at 2000 ops) / 198000: start-up cancels out;
# workload generation, allocator and event log stay in (a no-swap uniform_linear run).
# Each figure is the median of RUNS runs of each command, the commands interleaved.
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
# Each run's CPU (user + system, from wait4's rusage) with every command interleaved
# round-robin, and the median per command: this machine is shared, and a mean of
# back-to-back runs moved the ratio from 1.08x to 1.77x between runs of this script
# (docs/performance.md, "Measuring per activity").
python3 - "$runs" "$out" $small $big "$bare" "${bins[@]}" <<'PY'
import os, statistics, subprocess, sys
runs, out, small, big, bare, bins = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5], sys.argv[6:]
cmds = [[bare, str(small)], [bare, str(big)]]
for b in bins:
    cmds += [[b, "run", f"{out}/ul_{n}.yaml", "-q", "--out", f"{out}/r"] for n in (small, big)]
def cpu(cmd):
    child = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"per_activity: {' '.join(cmd)} exited with status {os.waitstatus_to_exitcode(status)}")
    return usage.ru_utime + usage.ru_stime
for cmd in cmds: cpu(cmd)  # warm-up: page cache, binaries
times = [[] for _ in cmds]
for _ in range(runs):
    for i, cmd in enumerate(cmds): times[i].append(cpu(cmd))
med = [statistics.median(t) for t in times]
per = lambda a, b: (b - a) / (big - small) * 1e6
bare_per = per(med[0], med[1])
print(f"bare SimGrid loop: {bare_per:.2f} us CPU per activity (median of {runs}, interleaved)")
for i, b in enumerate(bins):
    m = per(med[2 + 2 * i], med[3 + 2 * i])
    print(f"{b}: {m:.2f} us CPU per activity = {m / bare_per:.2f}x the bare loop")
PY
# The engine alone (this build's): no start-up, generation or outputs in either figure.
bench/engine_per_activity.sh "$runs"
