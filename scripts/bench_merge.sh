#!/usr/bin/env bash
# `memsim merge` (results.csv and every sweep plot) on synthetic sweep folders of N points,
# this build against a baseline binary measured in the same run (the machine is shared:
# compare the ratios), and the outputs of the two compared byte for byte.
#   scripts/bench_merge.sh [BASELINE] [N...]     default: /work/baseline2/memsim, 5000 20000
# The folder is what `memsim sweep --emit-jobs` leaves after its jobs ran: sweep.json and
# points/NNNN/summary.json, written here by a script (three swept keys, one of them a
# policy whose values are maps, so the plots include ratios, the Pareto chart and labels
# of map values). Linear merge: the time per point stays flat as N grows.
set -euo pipefail
cd "$(dirname "$0")/.."
baseline="${1:-/work/baseline2/memsim}"
shift || true
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(5000 20000)
memsim="$PWD/build/memsim"
[ -x "$memsim" ] || { echo "bench_merge.sh: build/memsim is missing (cmake --build build)" >&2; exit 1; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

make_sweep() {  # DIR N
  /usr/bin/python3 - "$1" "$2" <<'EOF'
import json, os, sys
root, n = sys.argv[1], int(sys.argv[2])
policies = ["{allocator: pool, swap: none}", "{allocator: pool, swap: sync}", "{allocator: pool, swap: async}",
            "{allocator: pool, recompute: {heuristic: dtr}}"]
bandwidths = ["%dMB/s" % (5 * (i + 1)) for i in range(50)]
batches = [str(b + 1) for b in range(max(1, n // (len(policies) * len(bandwidths))))]
params = [("policy", policies), ("platform.disk.bandwidth", bandwidths), ("workload.batch", batches)]
points = []
for a, pol in enumerate(policies):
    for b, bw in enumerate(bandwidths):
        for c, batch in enumerate(batches):
            points.append({"index": len(points) + 1, "values": [pol, bw, batch]})
plan = {"scenario_file": "/nonexistent/bench.yaml", "scenario_name": "bench_merge", "overrides": [],
        "parameters": [{"key": k, "values": v} for k, v in params], "points": points,
        "output": {"events": False, "gantt": False, "trace": False, "dir": "out/bench_merge"}}
os.makedirs(root, exist_ok=True)
json.dump(plan, open(os.path.join(root, "sweep.json"), "w"), indent=2)
for p in points:
    k = p["index"]
    pol = policies.index(p["values"][0])
    d = os.path.join(root, "points", "%04d" % k)
    os.makedirs(d, exist_ok=True)
    swapped = pol in (1, 2) and k % 3 != 0
    summary = {"status": "ok" if k % 17 else "oom", "message": "" if k % 17 else "out of memory",
               "time_ms": 100.0 + k % 97 + 3.5 * pol, "peak_bytes": 1048576 * (50 + k % 41),
               "stall_ms": 4.0 * pol if swapped else 0, "bytes_written": 4096 * pol if swapped else 0,
               "recomputed_ops": 3 if pol == 3 else 0, "evictions": 2 if swapped else 0,
               "compute_ms": 90.0 + k % 13, "policy": {"allocator": "pool"}}
    json.dump(summary, open(os.path.join(d, "summary.json"), "w"), indent=2)
EOF
}

printf '%-8s %12s %12s %8s %16s %s\n' points baseline_s this_s ratio this_us_per_point outputs
for n in "${sizes[@]}"; do
  make_sweep "$out/base_$n" "$n"
  cp -r "$out/base_$n" "$out/this_$n"
  count=$(ls "$out/base_$n/points" | wc -l)
  hyperfine -N --runs 1 --export-json "$out/t_$n.json" "$baseline merge $out/base_$n" "$memsim merge $out/this_$n" >/dev/null 2>&1
  read -r base this < <(/usr/bin/python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["results"]; print(r[0]["mean"], r[1]["mean"])' "$out/t_$n.json")
  same=identical
  [ "$(cd "$out/base_$n" && ls)" = "$(cd "$out/this_$n" && ls)" ] || same="DIFFER: the files written"
  for f in "$out/base_$n"/results.csv "$out/base_$n"/plot_*.svg; do
    cmp -s "$f" "$out/this_$n/$(basename "$f")" || same="DIFFER: $(basename "$f")"
  done
  printf '%-8s %12.3f %12.3f %7.1fx %16.1f %s\n' "$count" "$base" "$this" "$(/usr/bin/python3 -c "print($base/$this)")" \
    "$(/usr/bin/python3 -c "print($this/$count*1e6)")" "$same"
done
