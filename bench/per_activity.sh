#!/usr/bin/env bash
# memsim's CPU per activity against the bare SimGrid loop, for one or more memsim
# binaries in the same run (the per-activity section of scripts/bench.sh,
# alone, to compare a change with a baseline binary on a loaded machine):
#   bench/per_activity.sh [RUNS] [MEMSIM...]     # default: 5 runs, build/memsim
#   bench/per_activity.sh 5 /work/baseline2/memsim build/memsim
# Each figure is (CPU at 200000 ops - CPU at 2000 ops) / 198000: start-up cancels out;
# workload generation, allocator and event log stay in (a no-swap uniform_linear run).
# Each figure is the median of RUNS runs of each command, the commands interleaved.
# Then the bare loop again, keeping as many bytes per activity as the first memsim
# binary's warm-up runs left (bare_simgrid_loop N KEEP_BYTES): what this machine charges
# for the fresh pages alone, and memsim against that loop. Then the engine alone, for
# this build (bench/engine_per_activity.sh).
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
def usage(cmd):
    child = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, use = os.wait4(child.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"per_activity: {' '.join(cmd)} exited with status {os.waitstatus_to_exitcode(status)}")
    return {"cpu": use.ru_utime + use.ru_stime, "user": use.ru_utime, "system": use.ru_stime, "faults": use.ru_minflt}
warm = [usage(cmd) for cmd in cmds]  # warm-up: page cache, binaries
# The first memsim binary's new memory per activity, in bytes (4 KiB a minor fault), kept
# by a second bare loop: the cost of that memory on this machine, without memsim's work.
keep = max(0, round((warm[3]["faults"] - warm[2]["faults"]) * 4096 / (big - small)))
cmds += [[bare, str(small), str(keep)], [bare, str(big), str(keep)]]
kept = len(cmds) - 2
runs_of = [[] for _ in cmds]
for _ in range(runs):
    for i, cmd in enumerate(cmds): runs_of[i].append(usage(cmd))
# Per activity: the difference of the medians at the two sizes. User and system apart,
# with the new pages (minor faults): the system time is mostly those faults, whose cost
# is the machine's (docs/performance.md, "Measuring per activity").
per = lambda i, key: (statistics.median(r[key] for r in runs_of[i + 1]) - statistics.median(r[key] for r in runs_of[i])) / (big - small)
def line(i):
    return f"user {per(i, 'user') * 1e6:.2f} us + system {per(i, 'system') * 1e6:.2f} us, {per(i, 'faults'):.3f} new pages"
bare_per = per(0, "cpu") * 1e6
print(f"bare SimGrid loop: {bare_per:.2f} us CPU per activity (median of {runs}, interleaved; {line(0)})")
memsim_per = [per(2 + 2 * j, "cpu") * 1e6 for j in range(len(bins))]
for j, (b, m) in enumerate(zip(bins, memsim_per)):
    print(f"{b}: {m:.2f} us CPU per activity = {m / bare_per:.2f}x the bare loop ({line(2 + 2 * j)})")
kept_per = per(kept, "cpu") * 1e6
print(f"bare SimGrid loop keeping {keep} bytes per activity (the first memsim's new memory): {kept_per:.2f} us ({line(kept)})")
for b, m in zip(bins, memsim_per):
    print(f"{b}: {m / kept_per:.2f}x the bare loop keeping {keep} bytes per activity")
PY
# The engine alone (this build's): no start-up, generation or outputs in either figure.
bench/engine_per_activity.sh "$runs"
