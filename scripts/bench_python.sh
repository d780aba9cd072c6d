#!/usr/bin/env bash
# 100 runs of a small scenario (scenarios/example.yaml, the 59-operator MLP) from one
# Python process (memsim.run: a child forked from the warm process per run, the workload
# loaded once) against 100 `memsim run` processes started one after the other; prints
# both wall times and their ratio (docs/python.md, "Fast repeated runs").
#   scripts/bench_python.sh [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-100}
memsim=${MEMSIM:-build/memsim}
[ -x "$memsim" ] || { echo "bench_python.sh: $memsim is missing; run scripts/setup.sh (or set MEMSIM)" >&2; exit 1; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
PYTHONPATH="$PWD/python:$PWD/build/python${PYTHONPATH:+:$PYTHONPATH}" /usr/bin/python3 - "$memsim" "$runs" "$out" <<'PY'
import os, subprocess, sys, time
memsim, runs, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
t0 = time.perf_counter()
import memsim as ms
imported = time.perf_counter() - t0
scenario = "scenarios/example.yaml"
ms.run(scenario, out=os.path.join(out, "warm"))  # the workload is loaded here, as a notebook's first run does
t0 = time.perf_counter()
for i in range(runs):
    ms.run(scenario, out=os.path.join(out, "py"))
python_s = time.perf_counter() - t0
t0 = time.perf_counter()
for i in range(runs):
    subprocess.run([memsim, "run", scenario, "--out", os.path.join(out, "cli")], check=True,
                   stdout=subprocess.DEVNULL)
cli_s = time.perf_counter() - t0
print(f"import memsim: {imported * 1000:.0f} ms (once)")
print(f"{runs} runs of {scenario} from one Python process (memsim.run): {python_s:.2f} s ({python_s / runs * 1000:.1f} ms a run)")
print(f"{runs} memsim run processes: {cli_s:.2f} s ({cli_s / runs * 1000:.1f} ms a run)")
print(f"Python / CLI: {python_s / cli_s:.2f}")
PY
