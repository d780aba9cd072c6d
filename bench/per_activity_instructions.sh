#!/usr/bin/env bash
# The per-activity figures that do not depend on the machine's load: instructions
# (valgrind's callgrind, which counts every instruction the process runs) and new
# memory (minor page faults, each a fresh 4 KiB page), memsim against the bare SimGrid
# loop, per activity = (count at BIG - count at 2000) / (BIG - 2000), a no-swap
# uniform_linear run as in bench/per_activity.sh. What the CPU time adds to these two
# (cache misses, the cost of a page fault) is the machine's, and bench/per_activity.sh
# measures it; these show what a change did to the work itself, in one run each.
#   bench/per_activity_instructions.sh [BIG] [MEMSIM...]   # default: 40000, build/memsim
set -euo pipefail
cd "$(dirname "$0")/.."
big=${1:-40000}
[ $# -gt 0 ] && shift
bins=("$@")
[ ${#bins[@]} -gt 0 ] || bins=(build/memsim)
command -v valgrind >/dev/null || { echo "per_activity_instructions: valgrind is missing (apt-get install valgrind)" >&2; exit 1; }
bare=build/bench/bare_simgrid_loop
cmake --build build --target bare_simgrid_loop >/dev/null
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
small=2000
. bench/uniform_linear_scenarios.sh
write_uniform_linear_scenarios "$out" $small "$big"
python3 - "$out" $small "$big" "$bare" "${bins[@]}" <<'PY'
import os, re, subprocess, sys
out, small, big, bare, bins = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5:]
def instructions(cmd):
    done = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}/cg.out", *cmd],
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if done.returncode != 0: sys.exit(f"per_activity_instructions: {' '.join(cmd)} failed:\n{done.stderr}")
    return int(re.search(r"Collected : (\d+)", done.stderr).group(1))
def page_faults(cmd):
    child = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0: sys.exit(f"per_activity_instructions: {' '.join(cmd)} failed")
    return usage.ru_minflt
def per(measure, at):
    return (measure(at(big)) - measure(at(small))) / (big - small)
programs = [("bare SimGrid loop", lambda n: [bare, str(n)])]
programs += [(b, lambda n, b=b: [b, "run", f"{out}/ul_{n}.yaml", "-q", "--out", f"{out}/r"]) for b in bins]
figures = [(name, per(instructions, at), per(page_faults, at) * 4096) for name, at in programs]
base_ir, base_bytes = figures[0][1], figures[0][2]
print(f"per activity, {small} -> {big} activities (instructions by callgrind, new memory by minor page faults x 4 KiB):")
for name, ir, new_bytes in figures:
    print(f"{name}: {ir:,.0f} instructions = {ir / base_ir:.3f}x the bare loop; {round(new_bytes):,} bytes of new memory")
PY
