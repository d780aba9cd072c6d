#!/usr/bin/env bash
# How long the optimal planner takes against graph size (docs/optimal.md, "Sizes and
# times"): a benchmark, not a test. Every line is one solve (bench/optimal_solve.cpp) on a
# synthetic workload; cpu_s is the solver's CPU time (CBC's time limit counts CPU time too,
# so on a loaded machine the wall clock runs longer).
#   1. the chain's dynamic program (chain, uniform_linear) at 50% of the plan-free peak;
#   2. the integer program with CBC on `branching` (residual blocks: not a chain) at 60%,
#      growing until CBC no longer proves the optimum within the limit (default 60 s);
#   3. the integer program and the dynamic program side by side on small chains;
#   4. the linear relaxation and its rounded plan beyond.
# Usage: scripts/bench_optimal.sh [TIME_LIMIT_S]
set -euo pipefail
cd "$(dirname "$0")/.."
limit="${1:-60}"
cmake --build build --target optimal_solve >/dev/null
bin=build/bench/optimal_solve

echo "== 1. chain dynamic program, 50% budget"
for n in 25 50 100 200 300 400; do "$bin" chain "$n" 0.5 dp; done
for n in 50 100 200 400 600 800; do "$bin" uniform_linear "$n" 0.5 dp; done

echo "== 2. integer program (CBC, ${limit} s CPU), branching at 60%"
for n in 10 13 16 19 22 25 28 31 34 37 40; do
  line=$("$bin" branching "$n" 0.6 milp "$limit")
  echo "$line"
  case "$line" in
    *"status=optimal "*) ;;
    *) echo "first size CBC does not prove optimal within ${limit} s: branching n=$n"; break ;;
  esac
done

echo "== 3. integer program and dynamic program on the same chains, 60%"
for n in 7 9 11 13; do
  "$bin" chain "$n" 0.6 milp "$limit"
  "$bin" chain "$n" 0.6 dp
done

echo "== 4. linear relaxation + rounding, branching at 60%"
for n in 40 60 80 100 120; do "$bin" branching "$n" 0.6 lp "$limit"; done
