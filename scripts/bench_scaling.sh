#!/usr/bin/env bash
# Scaling of one `memsim run` with the workload's size: synthetic chain and branching
# networks (models/workload/synthetic.h) of 10^3..10^6 operators, each with no swap,
# async swapping of the feature maps, and DTR recomputation at 50% of the no-swap peak;
# wall time, CPU time (user + system) and peak RSS per size (wait4's rusage, in ms), and the
# log-log slope of CPU time over operators between the two largest sizes and over all
# sizes with the start-up floor subtracted (1 = linear; CPU time, because on a shared
# machine the wall clock also counts other programs). Then DTR
# at a budget of a few percent, with its recomputation count next to its time.
#   scripts/bench_scaling.sh                    # 10^3..10^6
#   scripts/bench_scaling.sh --max 100000       # stop at 10^5 (quick)
#   MEMSIM=/work/baseline/memsim scripts/bench_scaling.sh   # another binary (before/after)
#   TIMEOUT=120 ...                             # CPU seconds per run before it is cut (default 300)
# The limit is on CPU time (RLIMIT_CPU), not the wall clock: on a shared machine a run
# that gets a tenth of a core would otherwise be cut at a tenth of its work (a wall
# limit of 50x stays as a guard against a hang).
set -euo pipefail
cd "$(dirname "$0")/.."
memsim=${MEMSIM:-build/memsim}
[ -x "$memsim" ] || { echo "bench_scaling.sh: $memsim missing; build first" >&2; exit 1; }
max=1000000
[ "${1:-}" = "--max" ] && max=$2
timeout_s=${TIMEOUT:-300}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# Runs a command under a CPU-time limit (RLIMIT_CPU; on a shared machine a wall limit
# would cut a run that gets a tenth of a core at a tenth of its work) and a wall limit
# of 50x as a guard against a hang; prints "wall_s cpu_s rss_kib" from wait4's rusage,
# in milliseconds (GNU time prints centiseconds: a 10^4-operator run is then one or two
# ticks above the floor, too coarse for a slope).
cat > "$out/measure.py" <<'PY'
import os, resource, signal, subprocess, sys, time
limit = int(sys.argv[1])
start = time.monotonic()
child = subprocess.Popen(sys.argv[2:], stdout=subprocess.DEVNULL, stderr=open(os.environ["ERR"], "w"),
                         preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_CPU, (limit, limit)))
while True:
    pid, status, usage = os.wait4(child.pid, os.WNOHANG)
    if pid:
        break
    if time.monotonic() - start > 50 * limit:
        child.send_signal(signal.SIGKILL)
    time.sleep(0.002)
print(f"{time.monotonic() - start:.3f} {usage.ru_utime + usage.ru_stime:.3f} {usage.ru_maxrss}")
PY

# One run: prints "seconds cpu_seconds rss_kib status recomputed_ops" (status "timeout" when cut).
run() {  # kind ops policy-args...
  local kind=$1 ops=$2; shift 2
  local n=$((ops / 2))  # chain and branching have 2n operators
  printf 'name: scaling\nworkload: {synthetic: %s, n: %d}\nplatform: configs/phone.yaml\npolicy: {allocator: pool}\n' \
    "$kind" "$n" > "$out/s.yaml"
  rm -rf "$out/run"
  local wall cpu rss
  read -r wall cpu rss < <(ERR="$out/err" python3 "$out/measure.py" "$timeout_s" "$memsim" run "$out/s.yaml" "$@" \
    --out "$out/run" -q)
  if [ ! -f "$out/run/summary.json" ]; then
    echo "$wall $cpu $rss timeout -"
    return
  fi
  python3 -c 'import json,sys; s=json.load(open(sys.argv[1])); print(*sys.argv[2:], s["status"], s["recomputed_ops"])' \
    "$out/run/summary.json" "$wall" "$cpu" "$rss"
}

declare -A policies=(
  [none]=""
  [async]="--set policy.swap.mode=async --set policy.swap.select=feature_maps"
  [dtr50]="--set platform.memory.budget_ratio=0.5 --set policy.recompute.heuristic=dtr"
)
sizes=()
for ops in 1000 10000 100000 1000000; do [ "$ops" -le "$max" ] && sizes+=("$ops"); done

# The floor: CPU seconds of a run too small to matter (subtracted before the slope), the
# median of five.
floor=$(for _ in 1 2 3 4 5; do run chain 2 | awk '{ print $2 }'; done | sort -n | sed -n 3p)
printf '%-10s %-7s %9s %9s %9s %10s %9s %-8s\n' workload policy ops wall_s cpu_s peak_MiB B/op status
results="$out/results.txt"
: > "$results"
for kind in chain branching; do
  for policy in none async dtr50; do
    for ops in "${sizes[@]}"; do
      # shellcheck disable=SC2086
      read -r secs cpu rss status _ < <(run "$kind" "$ops" ${policies[$policy]})
      awk -v k="$kind" -v p="$policy" -v o="$ops" -v t="$secs" -v c="$cpu" -v r="$rss" -v s="$status" \
        'BEGIN { printf "%-10s %-7s %9d %9.3f %9.3f %10.1f %9.0f %-8s\n", k, p, o, t, c, r / 1024, r * 1024 / o, s }'
      echo "$kind $policy $ops $secs $cpu $rss $status" >> "$results"
      [ "$status" = timeout ] && break  # larger sizes would time out too
    done
  done
done

echo
echo "log-log slope of CPU seconds over operators, the start-up floor (${floor} s) subtracted (1.0 = linear)"
python3 - "$results" "$floor" <<'PY'
import math, sys, collections
floor = float(sys.argv[2])
rows = collections.defaultdict(list)
for line in open(sys.argv[1]):
    kind, policy, ops, secs, cpu, rss, status = line.split()
    if status != "timeout" and float(cpu) - floor > 0.01:
        rows[(kind, policy)].append((int(ops), float(cpu) - floor, int(rss)))
def slope(points):
    xs = [math.log(p[0]) for p in points]; ys = [math.log(p[1]) for p in points]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
print(f"{'workload':<10} {'policy':<7} {'slope_all':>9} {'slope_top':>9}")
for (kind, policy), pts in rows.items():
    if len(pts) < 2:
        print(f"{kind:<10} {policy:<7} {'-':>9} {'-':>9}"); continue
    print(f"{kind:<10} {policy:<7} {slope(pts):9.2f} {slope(pts[-2:]):9.2f}")
PY

echo
echo "DTR at a few percent of the no-swap peak (uniform_linear, 1-byte tensors, as in the DTR paper's table)"
printf '%-16s %9s %8s %9s %9s %14s %-8s\n' workload ops budget wall_s cpu_s recomputed_ops status
for n in 1000 10000; do
  for ratio in 0.05 0.02; do
    printf 'name: scaling\nworkload: {synthetic: uniform_linear, n: %d}\nplatform: configs/phone.yaml\npolicy: {allocator: os}\n' "$n" > "$out/s.yaml"
    rm -rf "$out/run"
    read -r wall cpu _ < <(ERR="$out/err" python3 "$out/measure.py" "$timeout_s" "$memsim" run "$out/s.yaml" \
      --set platform.memory.budget_ratio="$ratio" --set policy.recompute.heuristic=dtr --out "$out/run" -q)
    if [ -f "$out/run/summary.json" ]; then
      python3 -c 'import json,sys; s=json.load(open(sys.argv[1])); print("%-16s %9d %8s %9.3f %9.3f %14d %-8s" % ("uniform_linear", int(sys.argv[2]), sys.argv[3], float(sys.argv[4]), float(sys.argv[5]), s["recomputed_ops"], s["status"]))' \
        "$out/run/summary.json" $((2 * n)) "$ratio" "$wall" "$cpu"
    else
      printf '%-16s %9d %8s %9s %9s %14s %-8s\n' uniform_linear $((2 * n)) "$ratio" "$wall" "$cpu" - timeout
    fi
  done
done
echo "($(nproc) cores; $memsim; at most ${timeout_s} CPU seconds per run; load average $(cut -d' ' -f1-3 /proc/loadavg))"
