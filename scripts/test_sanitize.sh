#!/usr/bin/env bash
# The test suite under AddressSanitizer + UndefinedBehaviorSanitizer (README, "Sanitizers"):
# builds build-asan (-DMEMSIM_SANITIZE=ON: SimGrid actors on threads, which ASan can
# follow) and runs every ctest test there, the fuzz corpus replays included. Tests tagged
# [shared] (label `shared`) are skipped without ../shared, as in scripts/test.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
# clang (Debian's clang-14, which scripts/setup.sh installs for the fuzz targets) compiles
# this build in about 0.65x GCC's CPU (docs/performance.md, "The sanitizer build with
# clang"); GCC
# where clang is missing. A build-asan configured with the other compiler starts over.
compiler=()
if command -v clang++-14 >/dev/null; then
  compiler=(-DCMAKE_CXX_COMPILER=clang++-14)
else
  echo "test_sanitize: clang++-14 is not installed (scripts/setup.sh installs it): building with GCC, slower" >&2
fi
want=$([ ${#compiler[@]} -gt 0 ] && echo Clang || echo GNU)
if [ -f build-asan/CMakeCache.txt ] &&
   ! grep -qs "set(CMAKE_CXX_COMPILER_ID \"$want\")" build-asan/CMakeFiles/*/CMakeCXXCompiler.cmake; then
  rm -rf build-asan
fi
# Debug: the tests at -O0 -g1, the layers at -O2 -g1 under clang and -O1 -g1 under GCC
# (CMakeLists.txt, MEMSIM_SANITIZE_LAYER_FLAGS).
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DMEMSIM_SANITIZE=ON "${compiler[@]}" "${launcher[@]}" >/dev/null
cmake --build build-asan -j"$(nproc)"
args=(--test-dir build-asan --output-on-failure -j"$(nproc)")
# Tests that run only Python (the tracer in-process: label python_only) have no native
# code for the sanitizers to watch; they run in the plain suite. So do the browser tests
# (label browser): their time is headless Chromium's (123 s of this suite's 929 s of test
# time in a GCC build), and the page writers they drive run here in the tests that read
# the pages without a browser.
leave_out="python_only|browser"
[ -d ../shared/profiles ] || leave_out="$leave_out|shared"
args+=(-LE "^($leave_out)\$")
# One test is left to the plain suite: the optimal planner against every heuristic on the
# six shared DTR logs took 694 s of this suite's 1743 s here (15.9 s in the plain build),
# the last twelve minutes with one core idle. The sanitizers see the planner's code through
# the other optimal tests (the CBC grid among them); this one checks its answers.
# The same for the storages-and-views check of every swap policy on the six shared DTR logs
# (471 s under the sanitizers here, 7.4 s plain): the sanitizers see the same engine paths
# through its twin on the shipped traced logs.
# The two per-log families on the shared DTR logs (the published h_DTR table; the
# reference runtime on it with the end-of-log requests) run here on transformer only: the
# other five logs took 1167 s of this suite's 2312 s of test time (transformer 48 s), and
# they drive the same engine and reference-runtime code with more operators; the plain
# suite checks every log's answers.
# Two more checks of answers are left to the plain suite: the dynamic program and the
# integer program agreeing on chains (71.7 s here, 11.3 s plain: CBC's proofs, in a
# library the sanitizers do not instrument; the planner's own code runs here in the other
# optimal tests and the CBC grid), and the hybrid at the tightest budgets on MobilenetV2
# (70.0 s here, 3.2 s plain: nine runs of its 4,304 operators, three of them hybrid; the
# drop-or-swap rule and the hybrid's drops run here in tests/models/swap/
# test_swap_or_drop.cpp, tests/sim/engine/test_recompute_engine.cpp and
# test_tier_predictions.cpp). Times: a fresh clone's .ci/run, 2026-11-30.
other_logs="inceptionv4|lstm|treelstm|tv_densenet121|unroll_gan"
args+=(-E "^(optimal: never slower than any heuristic on the shared DTR logs|optimal: the dynamic program and the integer program agree on chains|at the tightest budgets the hybrid drops nothing it could not regenerate, and finishes|storages and views: every swap policy reads back what a later operator reads through a view, on the DTR logs|published DTR table, ($other_logs)|reference runtime on the shared DTR logs: published table and end-of-log requests, ($other_logs))$")
# halt_on_error: the first report fails the test; detect_leaks stays on (the default).
ASAN_OPTIONS="${ASAN_OPTIONS:-halt_on_error=1}" UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}" \
  ctest "${args[@]}"
