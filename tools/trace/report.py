"""The tables of docs/tracing.md, from traced logs and memsim's outputs.

  python3 -m tools.trace.report fidelity LOG...        (runs `memsim info --dtr-log`)
  python3 -m tools.trace.report dtr RESULTS.csv         (a sweep over logs x budget ratios)
  python3 -m tools.trace.report budget RESULTS.csv      (scenarios/traced_budget.yaml's sweep)
  python3 -m tools.trace.report disk RESULTS.csv        (logs x disk bandwidth x budget)
MEMSIM names the binary (default build/memsim).
"""
import collections
import csv
import json
import os
import subprocess
import sys

MEMSIM = os.environ.get("MEMSIM", "build/memsim")


def _name(log):
    return os.path.basename(log)[:-4] if log.endswith(".log") else os.path.basename(log)


def fidelity(logs):
    print("| log | ops (MUTATE) | constants (B) | memsim os peak (B) | tracer peak (B) | tracer peak - constants (B) "
          "| RSS delta (B) | RSS / traced | op times (ms) | untraced iteration (ms) | op share | tracing (s) |")
    print("| --- |" + " --- |" * 11)
    for log in logs:
        with open(log + ".meta.json") as f:
            m = json.load(f)
        done = subprocess.run([MEMSIM, "info", "--dtr-log", log, "--json"], capture_output=True, text=True, check=True)
        info = json.loads(done.stdout)
        traced = m["tracer_peak_bytes"] - m["constant_bytes"]
        rss = m.get("rss", {}).get("rss_iteration_delta_bytes")
        same = "=" if info["baseline_peak_bytes"] == m["tracer_peak_bytes"] else "(differs)"
        ratio = f"{rss / traced:.3f}" if rss else "-"
        print(f"| {_name(log)} | {m['ops']} ({m['mutates']}) | {m['constants']} ({m['constant_bytes']}) "
              f"| {info['baseline_peak_bytes']} | {m['tracer_peak_bytes']} {same} | {traced} | {rss or '-'} "
              f"| {ratio} | {m['op_time_sum_ns'] / 1e6:.0f} | {m['untraced_iteration_ns'] / 1e6:.0f} "
              f"| {m['op_time_sum_ns'] / m['untraced_iteration_ns']:.2f} | {m['tracing_seconds']:.0f} |")


def _rows(path):
    with open(path) as f:
        return list(csv.DictReader(f))


def _overhead(r):
    return f"{float(r['time_ms']) / float(r['compute_ms']):.3f}x" if r["status"] == "ok" else "-"


def dtr(path):
    rows = _rows(path)
    ratios = sorted({r["platform.memory.budget_ratio"] for r in rows}, key=float)
    cells = collections.OrderedDict()
    for r in rows:
        cells.setdefault(_name(r["workload.dtr_log"]), {})[r["platform.memory.budget_ratio"]] = r
    print("| log | " + " | ".join(f"{float(x):.0%}" for x in ratios) + " |")
    print("| --- |" + " --- |" * len(ratios))
    for name, by_ratio in cells.items():
        out = [f"{_overhead(by_ratio[x])} ({by_ratio[x]['recomputed_ops']})" if by_ratio[x]["status"] == "ok"
               else by_ratio[x]["status"] for x in ratios]
        print(f"| {name} | " + " | ".join(out) + " |")


def budget(path):
    def label(policy):
        if "hybrid" in policy:
            return "hybrid (swap + dtr)"
        return "swap (async, budget)" if "swap" in policy else "recompute (dtr, DTR semantics)"

    print("| policy | budget | status | time (ms) | overhead | peak (B) | swapped | written (B) | recomputed ops |")
    print("| --- |" + " --- |" * 8)
    for r in _rows(path):
        print(f"| {label(r['policy'])} | {float(r['platform.memory.budget_ratio']):.0%} | {r['status']} "
              f"| {float(r['time_ms']):.0f} | {_overhead(r)} | {r['peak_bytes']} | {r['swap_selected_tensors']} "
              f"| {r['bytes_written']} | {r['recomputed_ops']} |")


# Disk rates of the sweep, by the name of the configuration they come from.
_DISKS = {"104094472B/4.452s": "phone flash 23.4 MB/s (configs/phone.yaml)",
          "3.2GB/s": "NVMe 3.2 GB/s (configs/nvme_datacenter.yaml)"}


def disk(path):
    print("| log | budget | disk | status | time (ms) | overhead | stall (ms) | swapped | written (B) |")
    print("| --- |" + " --- |" * 8)
    for r in _rows(path):
        rate = r["platform.disk.bandwidth"]
        print(f"| {_name(r['workload.dtr_log'])} | {float(r['platform.memory.budget_ratio']):.0%} "
              f"| {_DISKS.get(rate, rate)} | {r['status']} | {float(r['time_ms']):.0f} | {_overhead(r)} "
              f"| {float(r['stall_ms']):.0f} | {r['swap_selected_tensors']} | {r['bytes_written']} |")


if __name__ == "__main__":
    kind, args = sys.argv[1], sys.argv[2:]
    {"fidelity": lambda: fidelity(args), "dtr": lambda: dtr(args[0]), "budget": lambda: budget(args[0]),
     "disk": lambda: disk(args[0])}[kind]()
