#!/usr/bin/env bash
# Compares memsim with the published reference numbers (../shared/reference/peer_reference.csv):
# for both shared profiles and every batch 2..16, the os and pool peaks and compute time
# (`memsim info`) and the sync / semi_sync / async peaks and times in reference semantics
# (`memsim run`, the phone disk), and the reference's static planner total where it has one
# (`heuristic_peak_bytes`, `memsim plan --strategy peer_heuristic_python`). Prints every
# mismatch and the largest relative time error; exits 1 on any mismatch.
#   scripts/compare_reference.sh
set -euo pipefail
cd "$(dirname "$0")/.."
memsim=${MEMSIM:-build/memsim}
[ -x "$memsim" ] || { echo "compare_reference.sh: $memsim is missing; run scripts/setup.sh (or set MEMSIM)" >&2; exit 1; }
ref=../shared/reference/peer_reference.csv
[ -f "$ref" ] || { echo "compare_reference.sh: $ref is missing" >&2; exit 1; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
python3 - "$memsim" "$ref" "$out" <<'PY'
import csv, json, subprocess, sys
memsim, ref_path, out = sys.argv[1:]
ref = {}
for row in csv.DictReader(open(ref_path)):
    ref[(row["model"], int(row["batch"]), row["metric"])] = float(row["value"])
checked = mismatches = 0
worst = (0.0, "")
def compare(key, value, exact):
    global checked, mismatches, worst
    if key not in ref: return
    want = ref[key]; checked += 1
    if exact:
        if int(value) != int(want):
            mismatches += 1; print(f"MISMATCH {key}: memsim {int(value)} reference {int(want)}")
    else:
        rel = abs(value - want) / abs(want)
        if rel > worst[0]: worst = (rel, f"{key}: memsim {value!r} reference {want!r}")
        if rel > 1e-6:
            mismatches += 1; print(f"MISMATCH {key}: memsim {value!r} reference {want!r} (relative {rel:.3g})")
for model in ("MobilenetV2", "Squeezenet"):
    profile = f"../shared/profiles/{model}"
    for batch in range(2, 17):
        info = json.loads(subprocess.run([memsim, "info", profile, "--batch", str(batch), "--json"],
                                         check=True, capture_output=True, text=True).stdout)
        compare((model, batch, "oracle_peak_bytes"), info["oracle_peak_bytes"], True)
        compare((model, batch, "pool_peak_bytes"), info["pool_peak_bytes"], True)
        compare((model, batch, "compute_ms"), info["compute_ms"], False)
        if (model, batch, "heuristic_peak_bytes") in ref:
            plan = json.loads(subprocess.run([memsim, "plan", profile, "--batch", str(batch), "--json",
                                              "--strategy", "peer_heuristic_python"],
                                             check=True, capture_output=True, text=True).stdout)
            compare((model, batch, "heuristic_peak_bytes"), plan["strategies"][0]["total_bytes"], True)
        for mode, name in (("sync", "sync"), ("semi_sync", "semisync"), ("async", "async")):
            d = f"{out}/{model}_{batch}_{mode}"
            subprocess.run([memsim, "run", "scenarios/mobilenetv2_b4.yaml", "-q", "--out", d,
                            "--set", f"workload.profile={profile}", "--set", f"workload.batch={batch}",
                            "--set", "policy.semantics=reference", "--set", f"policy.swap.mode={mode}"], check=True)
            s = json.load(open(f"{d}/summary.json"))
            compare((model, batch, f"{name}_peak_bytes"), s["peak_bytes"], True)
            compare((model, batch, f"{name}_time_ms"), s["time_ms"], False)
print(f"{checked} reference numbers compared, {mismatches} mismatches; "
      f"largest relative time error {worst[0]:.3g} ({worst[1]})")
sys.exit(1 if mismatches else 0)
PY
