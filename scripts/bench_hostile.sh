#!/usr/bin/env bash
# Issue 31, item 8: work that must grow linearly (or n log n) with its input. Prints, for
# each binary given (default build/memsim), the CPU seconds and peak RSS of:
#   sweep N   memsim sweep --emit-jobs of a scenario whose one sweep key has N values
#   dtr N     memsim info --dtr-log of a chain of N operators (the loader streams)
#   plan N    memsim plan -s greedy_by_size on a training-like log of N forward and N
#             backward operators (every activation alive from its op to its backward op)
#   alloc N   memsim run of that log with policy.allocator: planner:greedy_by_size
#   snap N    memsim info --torch-snapshot of a PyTorch memory snapshot with N allocations
#             (each freed; every trace entry refers to one shared 8-frame stack, as
#             PyTorch's pickles do) and of one with N active blocks
# Usage: scripts/bench_hostile.sh [memsim...]     e.g. scripts/bench_hostile.sh /tmp/old/memsim build/memsim
#        SIZES_SWEEP="1000 4000" SIZES_DTR="1000000" SIZES_PLAN="12500 25000 50000" SIZES_ALLOC="12500 25000" SIZES_SNAP="330000" scripts/bench_hostile.sh
#        (a single space skips a kind: SIZES_SWEEP=" "; the quadratic binaries need about
#        4 GB for plan 25000 and 16 GB for plan 50000)
# Inputs are generated under ${TMPDIR:-/tmp}/memsim_bench_hostile (about 300 MB for 10^6 operators).
set -euo pipefail
cd "$(dirname "$0")/.."
binaries=("$@")
[ ${#binaries[@]} -gt 0 ] || binaries=(build/memsim)
work="${TMPDIR:-/tmp}/memsim_bench_hostile"
mkdir -p "$work"
python=/usr/bin/python3

sweep_scenario() {  # N -> path
  local f="$work/sweep_$1.yaml"
  [ -f "$f" ] || "$python" -c "
import sys
n = int(sys.argv[1])
vals = ', '.join(str(0.5 + i / 10000) for i in range(n))
open(sys.argv[2], 'w').write('name: big\nworkload: {synthetic: uniform_linear, n: 4}\nsweep:\n  platform.gpu.speed_scale: [' + vals + ']\n')
" "$1" "$f"
  echo "$f"
}

chain_log() {  # N -> path: x -> t0 -> t1 -> ..., each released after its consumer
  local f="$work/chain_$1.log"
  [ -f "$f" ] || "$python" -c "
import sys
n = int(sys.argv[1]); w = open(sys.argv[2], 'w').write
w('{\"INSTRUCTION\":\"CONSTANT\",\"NAME\":\"x\"}\n{\"INSTRUCTION\":\"MEMORY\",\"MEMORY\":\"1000\",\"NAME\":\"x\"}\n')
prev = 'x'
for i in range(n):
    t = 't%d' % i
    w('{\"ARGS\":[\"%s\"],\"INSTRUCTION\":\"CALL\",\"NAME\":\"%s\",\"RESULT\":[\"%s\"],\"TIME\":\"1000\"}\n' % (prev, 'relu_backward' if i >= n // 2 else 'relu', t))
    w('{\"INSTRUCTION\":\"MEMORY\",\"MEMORY\":\"100\",\"NAME\":\"%s\"}\n{\"ALIAS\":\"-1\",\"INSTRUCTION\":\"ALIAS\",\"NAME\":\"%s\"}\n' % (t, t))
    if prev != 'x': w('{\"INSTRUCTION\":\"RELEASE\",\"NAME\":\"%s\"}\n' % prev)
    prev = t
" "$1" "$f"
  echo "$f"
}

training_log() {  # N -> path: N forward ops whose activations live until their backward op
  local f="$work/training_$1.log"
  [ -f "$f" ] || "$python" -c "
import random, sys
n = int(sys.argv[1]); w = open(sys.argv[2], 'w').write; r = random.Random(1)
w('{\"INSTRUCTION\":\"CONSTANT\",\"NAME\":\"x\"}\n{\"INSTRUCTION\":\"MEMORY\",\"MEMORY\":\"1000\",\"NAME\":\"x\"}\n')
prev = 'x'
for i in range(n):
    w('{\"ARGS\":[\"%s\"],\"INSTRUCTION\":\"CALL\",\"NAME\":\"f\",\"RESULT\":[\"a%d\"],\"TIME\":\"1000\"}\n' % (prev, i))
    w('{\"INSTRUCTION\":\"MEMORY\",\"MEMORY\":\"%d\",\"NAME\":\"a%d\"}\n{\"ALIAS\":\"-1\",\"INSTRUCTION\":\"ALIAS\",\"NAME\":\"a%d\"}\n' % (r.choice([64, 128, 256, 512, 1024]) * r.randint(1, 4), i, i))
    prev = 'a%d' % i
w('{\"ANNOTATION\":\"BACKWARD\",\"INSTRUCTION\":\"ANNOTATE\"}\n')
g = prev
for i in reversed(range(n)):
    w('{\"ARGS\":[\"%s\",\"a%d\"],\"INSTRUCTION\":\"CALL\",\"NAME\":\"f_backward\",\"RESULT\":[\"g%d\"],\"TIME\":\"1000\"}\n' % (g, i, i))
    w('{\"INSTRUCTION\":\"MEMORY\",\"MEMORY\":\"%d\",\"NAME\":\"g%d\"}\n{\"ALIAS\":\"-1\",\"INSTRUCTION\":\"ALIAS\",\"NAME\":\"g%d\"}\n' % (r.choice([64, 128, 256]) * r.randint(1, 4), i, i))
    w('{\"INSTRUCTION\":\"RELEASE\",\"NAME\":\"a%d\"}\n{\"INSTRUCTION\":\"RELEASE\",\"NAME\":\"%s\"}\n' % (i, g))
    g = 'g%d' % i
" "$1" "$f"
  echo "$f"
}

snapshot() {  # KIND N -> path: a torch 2.x memory snapshot (pickle protocol 4)
  local f="$work/snapshot_$1_$2.pickle"
  [ -f "$f" ] || "$python" -c "
import pickle, sys
kind, n = sys.argv[1], int(sys.argv[2])
frames = [{'filename': '/usr/lib/python3/dist-packages/torch/nn/modules/module.py', 'line': 1000 + i, 'name': 'forward'} for i in range(8)]
A = 1 << 30
if kind == 'allocs':
    trace = [{'action': 'segment_alloc', 'addr': A, 'size': 512 * 1000, 'stream': 0, 'time_us': 0, 'frames': frames}]
    for i in range(n):
        for action, dt in (('alloc', 1), ('free_requested', 2), ('free_completed', 3)):
            trace.append({'action': action, 'addr': A + 512 * (i % 1000), 'size': 512, 'stream': 0, 'time_us': 10 * i + dt, 'frames': frames})
    blocks = [{'address': A, 'size': 512 * 1000, 'requested_size': 0, 'state': 'inactive', 'frames': []}]
else:
    trace = [{'action': 'alloc', 'addr': A + 512 * n, 'size': 512, 'stream': 0, 'time_us': 1, 'frames': frames}]
    blocks = [{'address': A + 512 * i, 'size': 512, 'requested_size': 500, 'state': 'active_allocated', 'frames': frames} for i in range(n)]
total = sum(b['size'] for b in blocks)
seg = {'device': 0, 'address': A, 'total_size': total, 'allocated_size': 0, 'active_size': 0, 'requested_size': 0, 'stream': 0,
       'segment_type': 'large', 'segment_pool_id': (0, 0), 'is_expandable': False, 'frames': [], 'blocks': blocks}
pickle.dump({'segments': [seg], 'device_traces': [trace], 'allocator_settings': {'PYTORCH_CUDA_ALLOC_CONF': ''}},
            open(sys.argv[3], 'wb'), protocol=4)
" "$1" "$2" "$f"
  echo "$f"
}

measure() {  # label binary args... : CPU seconds (user+sys) and max RSS from GNU time
  local label=$1 bin=$2
  shift 2
  local t="$work/time.$$"
  if /usr/bin/time -f "%U %S %M" -o "$t" "$bin" "$@" >"$work/out.$$" 2>"$work/err.$$"; then
    read -r user sys rss <"$t"
    printf '%-34s %-28s %8.2f s CPU  %8.0f MB max RSS\n' "$label" "$bin" "$(echo "$user + $sys" | bc)" "$(echo "$rss / 1024" | bc)"
  else
    printf '%-34s %-28s failed: %s\n' "$label" "$bin" "$(tail -n 1 "$work/err.$$")"
  fi
}

echo "$(nproc) cores; CPU = user + sys seconds (GNU time); inputs in $work"
for n in ${SIZES_SWEEP:-1000 4000}; do
  f=$(sweep_scenario "$n")
  for b in "${binaries[@]}"; do
    rm -rf "$work/emit"
    measure "sweep: 1 key, $n values (emit-jobs)" "$b" sweep "$f" --emit-jobs "$work/emit"
  done
done
for n in ${SIZES_DTR:-1000000}; do
  f=$(chain_log "$n")
  for b in "${binaries[@]}"; do measure "dtr: info, chain of $n ops" "$b" info --dtr-log "$f"; done
done
for n in ${SIZES_PLAN:-12500 25000 50000}; do
  f=$(training_log "$n")
  for b in "${binaries[@]}"; do measure "plan: greedy_by_size, $((2 * n)) ops" "$b" plan --dtr-log "$f" -s greedy_by_size; done
done
for n in ${SIZES_ALLOC:-12500 25000}; do
  f=$(training_log "$n")
  printf 'name: alloc\nworkload: {dtr_log: %s}\npolicy: {allocator: "planner:greedy_by_size"}\n' "$f" >"$work/alloc_$n.yaml"
  for b in "${binaries[@]}"; do
    measure "alloc: planner:greedy_by_size run, $((2 * n)) ops" "$b" run "$work/alloc_$n.yaml" -q --out "$work/alloc_out"
  done
done
for n in ${SIZES_SNAP:-330000}; do
  f=$(snapshot allocs "$n")
  for b in "${binaries[@]}"; do measure "snap: info, $n allocations ($(( $(stat -c %s "$f") / 1000000 )) MB)" "$b" info --torch-snapshot "$f"; done
  f=$(snapshot blocks "$((3 * n))")
  for b in "${binaries[@]}"; do measure "snap: read, $((3 * n)) blocks ($(( $(stat -c %s "$f") / 1000000 )) MB)" "$b" info --torch-snapshot "$f"; done
done
rm -f "$work/time.$$" "$work/out.$$" "$work/err.$$"
