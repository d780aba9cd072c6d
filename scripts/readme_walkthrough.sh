#!/usr/bin/env bash
# The README walked as a new user would on a fresh clone: every ```sh block of README.md
# is read, continuation lines joined, and each command run as written from a copy of the
# repository's tracked files (no out/, no traces/ left over), with the build beside it
# as build/ and ../shared beside it when the machine has it. A command that costs
# minutes, installs packages or rewrites the repository is listed with the reason it is
# skipped; a command that reads ../shared is skipped, loudly, without it. Some commands'
# output must hold the answer the README gives. Prints one block per command; exits 1 if
# any command fails or misses its answer.
#
#   scripts/readme_walkthrough.sh [BUILD_DIR]     (default: build)
#
# ctest runs it as "readme: ..." (tests/CMakeLists.txt), so scripts/test.sh and CI do.
set -euo pipefail
src="$(cd "$(dirname "$0")/.." && pwd)"
build="$(realpath "${1:-$src/build}")"
[ -x "$build/memsim" ] || { echo "readme_walkthrough.sh: no $build/memsim; build first (scripts/setup.sh)" >&2; exit 1; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
clone="$work/memsim"
mkdir -p "$clone"
if git -C "$src" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  # The tracked files as the working tree has them: what a clone of this commit holds.
  (cd "$src" && git ls-files -z | while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done |
     xargs -0 cp --parents -t "$clone")
else
  (cd "$src" && tar --exclude='./build*' --exclude=./out --exclude=./traces -cf - .) | tar -xf - -C "$clone"
fi
ln -s "$build" "$clone/build"
have_shared=0
if [ -d "$src/../shared/profiles" ]; then
  ln -s "$(realpath "$src/../shared")" "$work/shared"
  have_shared=1
fi

# Each command of each ```sh block, one per line, continuation lines joined.
mapfile -t commands < <(awk '
  /^```sh[[:space:]]*$/ { inside = 1; next }
  /^```/ { inside = 0; next }
  inside {
    line = $0
    if (pending != "") { sub(/^[[:space:]]+/, "", line); line = pending " " line; pending = "" }
    if (line ~ /\\[[:space:]]*$/) { sub(/\\[[:space:]]*$/, "", line); pending = line; next }
    if (line ~ /^[[:space:]]*(#.*)?$/) next
    print line
  }' "$src/README.md")

# Why a command is not run here ("" = it runs).
skip_reason() {
  case "$1" in
    scripts/setup.sh*) echo "installs packages and builds: scripts/test.sh runs it before ctest" ;;
    scripts/test.sh*) echo "the whole suite, which this walk-through is part of" ;;
    scripts/update_golden.sh*) echo "rewrites tests/golden, which the golden tests compare with" ;;
    *"memsim trace "*) echo "traces a PyTorch model for minutes (tools/trace/tests cover the tracer)" ;;
    *traces/resnet50_b8.log*) echo "reads the trace of the command above" ;;
    cmake\ -B\ build-asan* | ctest\ --test-dir\ build-asan*) echo "the sanitizer build: scripts/test_sanitize.sh, which CI runs" ;;
    *) if [ "$have_shared" = 0 ] && [[ "$1" == *../shared* || "$1" == *'"$M"'* || "$1" == *mobilenetv2_b4.yaml* ]]; then
         echo "reads ../shared, which is missing next to the repository"
       fi ;;
  esac
}

# What the output must hold, where the README states the answer.
expected() {
  case "$1" in
    "build/memsim run scenarios/example.yaml"*) echo "scenario   example  [ok]" ;;
    "build/memsim compare scenarios/mobilenetv2_b4.yaml"*) echo "2    recompute planner msps_on_demand     ok     2570.016  1.033x" ;;
    "build/memsim find scenarios/disk_speed_whatif.yaml"*) echo "answer: platform.disk.bandwidth = 244.844MB/s" ;;
    "build/memsim find scenarios/swap_modes.yaml"*) echo "answer: policy.swap.prefetch.lead_ops = 13" ;;
    "build/memsim find scenarios/mobilenetv2_b4.yaml"*) echo "answer: workload.batch = 7" ;;
    "build/memsim sweep scenarios/disk_speed_whatif.yaml --jobs"*) echo "9 points: 9 ok, 0 failed" ;;
    "build/memsim merge"*) echo "9 points: 9 ok, 0 failed" ;;
    "build/memsim run scenarios/traced_budget.yaml --set platform="*) echo "the budget_ratio 0.7 is the scenario's" ;;
  esac
}

ran=0 skipped=0 failed=0 n=0
for cmd in "${commands[@]}"; do
  n=$((n + 1))
  echo "== [$n] $cmd"
  reason="$(skip_reason "$cmd")"
  if [ -n "$reason" ]; then
    echo "   skipped: $reason"
    skipped=$((skipped + 1))
    continue
  fi
  if [[ "$cmd" =~ ^[A-Za-z_][A-Za-z_0-9]*= ]]; then  # an assignment the next commands use
    eval "export $cmd"
    echo "   set"
    continue
  fi
  start=$(date +%s.%N)
  status=0
  (cd "$clone" && bash -c "set -o pipefail; $cmd") >"$work/out" 2>&1 || status=$?
  seconds=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
  want="$(expected "$cmd")"
  if [ "$status" -ne 0 ]; then
    echo "   FAILED: exit $status after $seconds s; its output ends:"
    tail -n 15 "$work/out" | sed 's/^/   | /'
    failed=$((failed + 1))
  elif [ -n "$want" ] && ! grep -qF -- "$want" "$work/out"; then
    echo "   FAILED: exit 0 after $seconds s, but the output lacks the README's answer: $want"
    tail -n 15 "$work/out" | sed 's/^/   | /'
    failed=$((failed + 1))
  else
    echo "   ok in $seconds s${want:+, holds: $want}"
    { grep -v -e '^wrote ' -e '^\[' "$work/out" || true; } | tail -n 4 | cut -c1-160 | sed 's/^/   | /'
    ran=$((ran + 1))
  fi
done
[ "$have_shared" = 1 ] || echo "WARNING: ../shared is missing: the commands that read it were skipped"
echo "README walk-through: $n commands: $ran ran, $skipped skipped, $failed failed"
[ "$n" -gt 0 ] && [ "$failed" -eq 0 ]
