#!/usr/bin/env bash
# memsim's speed, measured with hyperfine, every number next to the baselines measured in
# the same run (the machine is shared and noisy: compare ratios, not milliseconds):
#   floor      a process linked with Debian's libsimgrid that does nothing (bench/empty_main.cpp);
#   bare loop  a SimGrid program that only runs N activities (bench/bare_simgrid_loop.cpp).
# Sections: start-up; per-activity cost against the bare loop; single runs; three swap
# modes in one `memsim sweep` against three `memsim run`s; a 1000-point MobilenetV2 sweep
# (forked points against a process per point); per-point overhead of a sweep; then the
# scaling table (scripts/bench_scaling.sh).
#   scripts/bench.sh              # everything (several minutes)
#   scripts/bench.sh --quick      # fewer runs, a 200-point sweep, scaling up to 10^5
#   scripts/bench.sh --no-scaling
# Cases on ../shared/profiles are skipped, loudly, when ../shared is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x build/memsim ] || scripts/setup.sh --no-run >/dev/null
# scripts/setup.sh builds memsim only; the benchmarks' own programs are built here.
cmake --build build -j"$(nproc)" --target memsim bare_simgrid_loop empty_main_simgrid empty_main_plain >/dev/null
command -v hyperfine >/dev/null || { echo "bench.sh: hyperfine is missing; run scripts/setup.sh" >&2; exit 1; }

runs=20 sweep_points=1000 scaling_max=1000000 scaling=1
for arg in "$@"; do
  case $arg in
    --quick) runs=5 sweep_points=200 scaling_max=100000 ;;
    --no-scaling) scaling=0 ;;
    *) echo "bench.sh: unknown option $arg" >&2; exit 1 ;;
  esac
done
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
memsim=build/memsim
shared=0
[ -d ../shared/profiles ] && shared=1
if [ $shared = 0 ]; then
  echo "############################################################" >&2
  echo "# WARNING: ../shared is missing: real-profile cases skipped #" >&2
  echo "############################################################" >&2
fi

# bench NAME RUNS COMMAND...: hyperfine's mean and stddev (s) into $out/NAME.json.
bench() {
  local name=$1 n=$2; shift 2
  hyperfine -N --warmup "$([ "$n" -gt 2 ] && echo 2 || echo 0)" --runs "$n" --export-json "$out/$name.json" "$*" >/dev/null 2>&1
}
mean() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["results"][0]["mean"])' "$out/$1.json"; }
# CPU seconds (user + system, the process and the children it waited for).
cpu() { python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["results"][0]; print(r["user"] + r["system"])' "$out/$1.json"; }
sd() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["results"][0]["stddev"] or 0)' "$out/$1.json"; }
# row LABEL NAME BASE [EXTRA]: wall mean and stddev in ms, its ratio to the named
# baseline, then CPU ms and its ratio (on a loaded machine the CPU ratio is the steadier).
row() {
  printf '%-50s %9.1f %7.1f %8.2fx %9.1f %8.2fx %s\n' "$1" "$(python3 -c "print($(mean "$2")*1e3)")" \
    "$(python3 -c "print($(sd "$2")*1e3)")" "$(python3 -c "print($(mean "$2")/$(mean "$3"))")" \
    "$(python3 -c "print($(cpu "$2")*1e3)")" "$(python3 -c "print($(cpu "$2")/max($(cpu "$3"),1e-9))")" "${4:-}"
}
header() { printf '\n== %s\n%-50s %9s %7s %9s %9s %9s\n' "$1" case wall_ms sd_ms ratio cpu_ms cpu_ratio; }
scenario() {  # NAME WORKLOAD-YAML [POLICY-YAML] [SWEEP-YAML]: a scenario file in $out
  printf 'name: %s\nworkload: %s\nplatform: configs/phone.yaml\npolicy: %s\n%s' "$1" "$2" "${3:-{allocator: pool\}}" "${4:-}" \
    > "$out/$1.yaml"
  echo "$out/$1.yaml"
}

header "start-up (ratio: to the floor, an empty main linked with libsimgrid)"
bench floor "$runs" build/bench/empty_main_simgrid
bench plain "$runs" build/bench/empty_main_plain
bench help "$runs" "$memsim" --help
row "empty main, no SimGrid" plain floor
row "empty main linked with libsimgrid (the floor)" floor floor
row "memsim --help" help floor

header "per activity (memsim run of N ops without swapping vs the bare SimGrid loop of N activities)"
small=2000 big=200000
bench bare_small "$runs" build/bench/bare_simgrid_loop $small
bench bare_big 3 build/bench/bare_simgrid_loop $big
ul_small=$(scenario ul_small "{synthetic: uniform_linear, n: $((small / 2))}")
ul_big=$(scenario ul_big "{synthetic: uniform_linear, n: $((big / 2))}")
bench memsim_small "$runs" "$memsim" run "$ul_small" -q --out "$out/r"
bench memsim_big 3 "$memsim" run "$ul_big" -q --out "$out/r"
row "bare SimGrid loop, $small activities" bare_small floor "(ratio to the floor)"
row "bare SimGrid loop, $big activities" bare_big floor
row "memsim run, uniform_linear $small ops" memsim_small floor
row "memsim run, uniform_linear $big ops" memsim_big floor
python3 - "$(mean bare_small)" "$(mean bare_big)" "$(mean memsim_small)" "$(mean memsim_big)" \
  "$(cpu bare_small)" "$(cpu bare_big)" "$(cpu memsim_small)" "$(cpu memsim_big)" $small $big <<'PY'
import sys
v = list(map(float, sys.argv[1:]))
small, big = v[8], v[9]
for label, (bs, bb, ms, mb) in (("wall", v[0:4]), ("CPU", v[4:8])):
    bare = (bb - bs) / (big - small) * 1e6
    mem = (mb - ms) / (big - small) * 1e6
    print(f"per activity ({label}): bare SimGrid {bare:.2f} us, memsim {mem:.2f} us (workload generation, allocator, "
          f"event log included): memsim / bare = {mem / bare:.2f}x")
PY
bench/engine_per_activity.sh "$runs"
# Instructions and new memory per activity: the figures the machine's load does not move.
if command -v valgrind >/dev/null; then bench/per_activity_instructions.sh; else echo "(valgrind missing: no instruction counts)"; fi

if [ $shared = 1 ]; then
  mb="{profile: ../shared/profiles/MobilenetV2, batch: 4}"
  header "single runs (ratio: to the floor)"
  none=$(scenario mb_none "$mb")
  async=$(scenario mb_async "$mb" "{allocator: pool, swap: {mode: async, select: feature_maps}}")
  sq=$(scenario sq_async "{profile: ../shared/profiles/Squeezenet, batch: 4}" "{allocator: pool, swap: {mode: async, select: feature_maps}}")
  bench mb_none "$runs" "$memsim" run "$none" -q --out "$out/r"
  bench mb_async "$runs" "$memsim" run "$async" -q --out "$out/r"
  bench sq_async "$runs" "$memsim" run "$sq" -q --out "$out/r"
  bench mb_info "$runs" "$memsim" info ../shared/profiles/MobilenetV2 --batch 4
  row "MobilenetV2 b4, no swap" mb_none floor
  row "MobilenetV2 b4, async swap" mb_async floor
  row "Squeezenet b4, async swap" sq_async floor
  row "memsim info MobilenetV2 b4 (load, no simulation)" mb_info floor

  header "three swap modes of MobilenetV2 b4 (ratio: to three separate memsim runs)"
  three=$(scenario three "$mb" "{allocator: pool, swap: {mode: async, select: feature_maps}}" \
    $'sweep:\n  policy.swap.mode: [sync, semi_sync, async]\n')
  printf '%s\n' "#!/bin/sh" "set -e" \
    "for m in sync semi_sync async; do $memsim run $three --set policy.swap.mode=\$m -q --out $out/r3; done" > "$out/three_runs.sh"
  bench three_runs "$runs" sh "$out/three_runs.sh"
  bench three_sweep1 "$runs" "$memsim" sweep "$three" --jobs 1 --out "$out/s3"
  bench three_sweep2 "$runs" "$memsim" sweep "$three" --jobs 2 --out "$out/s3"
  row "3 x memsim run (sync, semi_sync, async)" three_runs three_runs
  row "memsim sweep, 3 modes, --jobs 1" three_sweep1 three_runs
  row "memsim sweep, 3 modes, --jobs 2" three_sweep2 three_runs
  row "  (the floor, for scale)" floor three_runs

  header "a $sweep_points-point MobilenetV2 b4 sweep, --jobs 2 (ratio: to a process per point)"
  bws=$(python3 -c "print(', '.join(f'{10 + 2 * i}MB/s' for i in range($sweep_points // 4)))")
  big_sweep=$(scenario sweep_big "$mb" "{allocator: pool, swap: {mode: async, select: feature_maps}}" \
    $'sweep:\n  policy.swap.mode: [none, sync, semi_sync, async]\n  platform.disk.bandwidth: ['"$bws"$']\n')
  bench sweep_procs 1 "$memsim" sweep "$big_sweep" --jobs 2 --process-per-point --out "$out/sp"
  bench sweep_fork 2 "$memsim" sweep "$big_sweep" --jobs 2 --out "$out/sf"
  cmp -s "$out/sp/results.csv" "$out/sf/results.csv" && same="results.csv identical" || same="RESULTS DIFFER"
  row "process per point (memsim run per point)" sweep_procs sweep_procs
  row "forked points (each workload loaded once)" sweep_fork sweep_procs "$same"
  python3 -c "import sys; f, c, n = float(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3]); print(f'forked: {f:.1f} s wall, {c:.1f} s CPU for {n} points = {f / n * 1e3:.1f} ms wall, {c / n * 1e3:.1f} ms CPU per point')" \
    "$(mean sweep_fork)" "$(cpu sweep_fork)" "$sweep_points"
fi

header "per-point overhead of a sweep: 200 points of a 2-operator workload, --jobs 1"
tiny=$(scenario tiny "{synthetic: uniform_linear, n: 1}" "{allocator: pool}" \
  $'sweep:\n  platform.disk.bandwidth: ['"$(python3 -c "print(', '.join(f'{i + 1}MB/s' for i in range(200)))")"$']\n')
bench tiny_sweep 3 "$memsim" sweep "$tiny" --jobs 1 --out "$out/st"
bench tiny_procs 1 "$memsim" sweep "$tiny" --jobs 1 --process-per-point --out "$out/stp"
row "200 forked points" tiny_sweep floor "(ratio: to the floor)"
row "200 processes (--process-per-point)" tiny_procs floor
python3 - "$(mean tiny_sweep)" "$(mean tiny_procs)" "$(mean floor)" "$(cpu tiny_sweep)" "$(cpu tiny_procs)" "$(cpu floor)" <<'PY'
import sys
fork, procs, floor, cfork, cprocs, cfloor = map(float, sys.argv[1:])
print(f"per point, (sweep - floor) / 200: forked {(fork - floor) / 200 * 1e3:.2f} ms wall, {(cfork - cfloor) / 200 * 1e3:.2f} ms CPU; "
      f"process per point {(procs - floor) / 200 * 1e3:.2f} ms wall, {(cprocs - cfloor) / 200 * 1e3:.2f} ms CPU")
PY
echo "($(nproc) cores; $runs runs per case after 2 warm-ups unless fewer are shown; $(date -u +%FT%TZ))"

if [ $scaling = 1 ]; then
  echo
  echo "== scaling (scripts/bench_scaling.sh --max $scaling_max)"
  scripts/bench_scaling.sh --max "$scaling_max"
fi
