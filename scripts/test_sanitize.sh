#!/usr/bin/env bash
# The test suite under AddressSanitizer + UndefinedBehaviorSanitizer (README, "Sanitizers"):
# builds build-asan (-DMEMSIM_SANITIZE=ON: SimGrid actors on threads, which ASan can
# follow) and runs every ctest test there, the fuzz corpus replays included. Tests tagged
# [shared] (label `shared`) are skipped without ../shared, as in scripts/test.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DMEMSIM_SANITIZE=ON "${launcher[@]}" >/dev/null
cmake --build build-asan -j"$(nproc)"
args=(--test-dir build-asan --output-on-failure -j"$(nproc)")
[ -d ../shared/profiles ] || args+=(-LE shared)
# halt_on_error: the first report fails the test; detect_leaks stays on (the default).
ASAN_OPTIONS="${ASAN_OPTIONS:-halt_on_error=1}" UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}" \
  ctest "${args[@]}"
