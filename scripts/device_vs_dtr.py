#!/usr/bin/env python3
"""The device model against the DTR prototype's measured operator times (docs/gpu_model.md,
"Against measured times"). The six logs of ../shared/dtr-logs record each operator's GPU
time and every tensor's bytes but no FLOPs, so per log this prints: the measured compute
(sum of TIME), the bytes the operators read and write (arguments' storage plus fresh
results; an in-place op writes what it mutates), the memory-bound roofline on the titan_v
preset (bytes / 652.8 GB/s + 5 us a kernel) and, where the model's FLOPs are published,
the compute-bound roofline (3 x forward FLOPs x batch / 14.9 Tflop/s + 5 us a kernel).
Reads the logs where they lie; copies nothing.
  scripts/device_vs_dtr.py [DIR]        (default ../shared/dtr-logs)
"""
import glob
import json
import os
import sys

BANDWIDTH = 652.8e9   # titan_v preset, B/s
FP32 = 14.9e12        # titan_v preset, flop/s
LAUNCH_S = 5e-6       # the presets' launch overhead
# Forward multiply-adds per sample where a source publishes them: torchvision's model
# table lists DenseNet-121 at 2.83 GFLOPS (multiply-adds) at 224x224. A training step is
# counted as 3 forward passes (the backward computes two products per forward product).
FORWARD_MACS = {"tv_densenet121": 2.83e9}


def measure(path):
    sizes = {}
    ops = kernels = 0
    time_ns = 0
    moved = 0
    started = False
    pending = []  # results of the last CALL waiting for MEMORY/ALIAS lines
    with open(path) as f:
        for line in f:
            rec = json.loads(line)
            ins = rec["INSTRUCTION"]
            if ins == "ANNOTATE" and rec.get("ANNOTATION") == "START":
                started = True
                continue
            if not started:
                continue
            if ins == "MEMORY":
                sizes[rec["NAME"]] = int(rec["MEMORY"])
            elif ins == "ALIAS":
                if rec["ALIAS"] == "-1" and rec["NAME"] in pending:
                    moved += sizes.get(rec["NAME"], 0)
            elif ins == "COPY":
                sizes[rec["DST"]] = sizes.get(rec["SRC"], 0)
            elif ins == "COPY_FROM":
                sizes[rec["DST"]] = sizes.get(rec["SRC"], 0)
            elif ins in ("CALL", "MUTATE"):
                ops += 1
                time_ns += int(rec["TIME"])
                read = sum(sizes.get(a, 0) for a in rec["ARGS"])
                moved += read
                if ins == "MUTATE":
                    moved += sum(sizes.get(rec["ARGS"][i], 0) for i in rec["MUTATE"])
                    pending = []
                else:
                    pending = rec["RESULT"]
    return ops, time_ns, moved


def main():
    folder = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..", "shared", "dtr-logs")
    print("| log | ops | measured (ms) | bytes moved (GB) | memory roofline (ms) | compute roofline (ms) | measured / roofline |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for path in sorted(glob.glob(os.path.join(folder, "*.log"))):
        name = os.path.basename(path)
        model, batch = name.split("-")[0], int(name.split("-")[1])
        ops, time_ns, moved = measure(path)
        launch = ops * LAUNCH_S
        memory_ms = (moved / BANDWIDTH + launch) * 1e3
        compute_ms = None
        if model in FORWARD_MACS:
            compute_ms = (3 * 2 * FORWARD_MACS[model] * batch / FP32 + launch) * 1e3
        bound = max(memory_ms, compute_ms or 0)
        print(f"| {model}-{batch} | {ops} | {time_ns / 1e6:.1f} | {moved / 1e9:.1f} | {memory_ms:.1f} | "
              f"{'-' if compute_ms is None else f'{compute_ms:.1f}'} | {time_ns / 1e6 / bound:.2f}x |")


if __name__ == "__main__":
    main()
