#!/usr/bin/env bash
# Fuzzes memsim's input readers with libFuzzer (docs/fuzzing.md).
#   scripts/fuzz.sh [seconds] [target...]      default: 60 s per target, every target
#   FUZZ_RUNS=1000000 scripts/fuzz.sh 3600     stop each target after that many executions
# Builds build-fuzz with Debian's clang-14 (ASan + UBSan + float-cast-overflow +
# unsigned-integer-overflow), then runs each target on a working corpus in
# build-fuzz/corpus/T seeded from fuzz/corpus/T, with fuzz/dict/T.dict. Crash inputs go to
# build-fuzz/crashes/T/; a fixed crash is kept as tests/fuzz_regressions/T/NAME, which
# ctest replays. Inputs are at most FUZZ_MAX_LEN bytes (4096). Prints each target's execution count; exits 1 if any target failed.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(dtr_log mnn_profile scenario records merge torch_snapshot platform_file)

launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=clang-14 \
  -DCMAKE_CXX_COMPILER=clang++-14 -DMEMSIM_FUZZ=ON -DBUILD_TESTING=OFF "${launcher[@]}" >/dev/null
cmake --build build-fuzz -j"${FUZZ_JOBS:-2}" --target "${targets[@]/#/fuzz_}"

status=0
for t in "${targets[@]}"; do
  mkdir -p "build-fuzz/corpus/$t" "build-fuzz/crashes/$t"
  log="build-fuzz/fuzz_$t.log"
  set +e
  "build-fuzz/fuzz/fuzz_$t" "build-fuzz/corpus/$t" "fuzz/corpus/$t" -dict="fuzz/dict/$t.dict" \
    -max_total_time="$seconds" ${FUZZ_RUNS:+-runs=$FUZZ_RUNS} -max_len="${FUZZ_MAX_LEN:-4096}" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="build-fuzz/crashes/$t/" >"$log" 2>&1
  rc=$?
  set -e
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
  if [ $rc -eq 0 ]; then
    secs=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
    echo "fuzz $t: $runs executions ($secs/s), clean"
  else
    echo "fuzz $t: FAILED after $runs executions (exit $rc); see $log and build-fuzz/crashes/$t/"
    status=1
  fi
done
exit $status
