#!/usr/bin/env bash
# Planning time of every static planner on MobilenetV2 batch 4 (issue 5: <= 1 s in
# total), or on another shared profile and batch (the time columns of docs/planners.md's
# quality tables). One `memsim plan` process plans with each strategy in turn and prints
# the planner's own time per strategy (profile loading and plan validation not included),
# repeated a few times.
#   scripts/bench_plan.sh                  # MobilenetV2 batch 4, 5 repetitions
#   scripts/bench_plan.sh --quick          # 1 repetition
#   scripts/bench_plan.sh Squeezenet 16    # ../shared/profiles/Squeezenet, batch 16
#   MEMSIM=build-plan/memsim scripts/bench_plan.sh
set -euo pipefail
cd "$(dirname "$0")/.."
memsim=${MEMSIM:-build/memsim}
[ -x "$memsim" ] || { echo "bench_plan.sh: $memsim is missing; run scripts/setup.sh (or set MEMSIM)" >&2; exit 1; }
reps=5
[ "${1:-}" = "--quick" ] && { reps=1; shift; }
model=${1:-MobilenetV2}
batch=${2:-4}
profile=../shared/profiles/$model
[ -d "$profile" ] || { echo "bench_plan.sh: $profile is missing" >&2; exit 1; }

echo "$model batch $batch, $(nproc) cores, $reps repetitions; planning time per strategy in ms"
for ((r = 1; r <= reps; r++)); do
  "$memsim" plan "$profile" --batch "$batch" --strategy all --json >"/tmp/bench_plan.$$.$r.json"
done
python3 - "$reps" <<PY
import json, sys
reps = int(sys.argv[1])
runs = [json.load(open(f"/tmp/bench_plan.$$.{r}.json")) for r in range(1, reps + 1)]
names = [s["strategy"] for s in runs[0]["strategies"]]
print(f"{'strategy':<24} {'total_bytes':>12} {'gap_to_bound':>12} " + " ".join(f"{'run'+str(r+1):>9}" for r in range(reps)) + f" {'best':>9}")
sums = [0.0] * reps
for i, name in enumerate(names):
    times = [run["strategies"][i]["time_ms"] for run in runs]
    for r, t in enumerate(times): sums[r] += t
    s = runs[0]["strategies"][i]
    print(f"{name:<24} {s['total_bytes']:>12} {100*(s['ratio_to_bound']-1):>11.3f}% " + " ".join(f"{t:>9.2f}" for t in times) + f" {min(times):>9.2f}")
print(f"{'total (' + str(len(names)) + ' strategies)':<50} " + " ".join(f"{t:>9.2f}" for t in sums) + f" {min(sums):>9.2f}")
PY
rm -f /tmp/bench_plan.$$.*.json
