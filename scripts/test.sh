#!/usr/bin/env bash
# The whole test suite: builds (after setting up if needed) and runs every test with
# ctest. Tests tagged [shared] (ctest label `shared`) read ../shared
# (real profiles, DTR logs, reference numbers); without that folder they are skipped,
# loudly.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --no-run
echo "== building the tests and benchmarks"
cmake --build build -j"$(nproc)"

args=(--test-dir build --output-on-failure -j"$(nproc)")
if [ ! -d ../shared/profiles ]; then
  cat >&2 <<'MSG'
############################################################################
#  WARNING: ../shared is missing next to this repository.                   #
#  Every test tagged [shared] (real profiles, DTR logs, reference           #
#  numbers) is SKIPPED. Only the self-contained tests run.                  #
############################################################################
MSG
  args+=(-LE shared)
fi
ctest "${args[@]}"
