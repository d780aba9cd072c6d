"""The passes of one trace and the files they write (docs/tracing.md).

1. warm-up iteration (optimizer state appears, oneDNN primitives are created);
2. `repeat` untraced iterations: their median wall time goes into the sidecar;
3. one recorded iteration: the log's structure (names, sizes, releases);
4. `repeat` timing iterations: each operator's TIME is its median over them, measured
   around the operator call alone;
5. in a separate process, the resident-set high-water mark of one untraced iteration.
The log and the sidecar are written to temporary names and renamed at the end, so a
failed trace never leaves a file that looks complete.
"""
import datetime
import gc
import json
import os
import platform
import statistics
import subprocess
import sys
import time

import torch

from tools.trace import rss_probe
from tools.trace.iteration import make_optimizer, persistent_tensors, run_iteration
from tools.trace.models import TraceError, load_workload
from tools.trace.recorder import OpTimer, Recorder

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def _line(d: dict) -> str:
    return json.dumps(d, sort_keys=True, separators=(",", ":"))


def _write_atomically(path: str, text: str):
    tmp = f"{path}.tmp-{os.getpid()}"
    try:
        with open(tmp, "w") as f:
            f.write(text)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)


def _synchronizer(device: str):
    return torch.cuda.synchronize if device == "cuda" else None


def _first_iteration(workload, optimizer, spec):
    """The warm-up iteration; an exception here is the model rejecting its input."""
    try:
        run_iteration(workload, optimizer)
    except Exception as e:  # the message of the model's own error, then ours
        shape = workload.description.get("input_shape")
        raise TraceError(f"{spec} rejected input of shape {shape}: {type(e).__name__}: {str(e).strip()}")


def _rss(spec, batch, input_shape, optimizer_name, device):
    request = json.dumps({"model": spec, "batch": batch, "input_shape": input_shape, "optimizer": optimizer_name,
                          "device": device})
    env = dict(os.environ, **rss_probe.ENVIRONMENT)
    env["PYTHONPATH"] = REPO_ROOT + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    done = subprocess.run([sys.executable, "-m", "tools.trace.rss_probe", request], env=env, cwd=os.getcwd(),
                          capture_output=True, text=True)
    if done.returncode != 0:
        return {"error": done.stderr.strip().splitlines()[-1] if done.stderr.strip() else "rss probe failed"}
    return json.loads(done.stdout)


def trace(spec: str, out: str, batch: int = 1, input_shape=None, optimizer_name: str = "sgd",
          device: str = "cpu", repeat: int = 3, measure_rss: bool = True, log=print) -> dict:
    if batch < 1:
        raise TraceError(f"--batch must be >= 1, got {batch}")
    if repeat < 1:
        raise TraceError(f"--repeat must be >= 1, got {repeat}")
    if device == "cuda" and not torch.cuda.is_available():
        raise TraceError("--device cuda: torch sees no CUDA device here; use --device cpu")
    started = time.perf_counter()
    workload = load_workload(spec, batch, input_shape, device)
    workload.model.train()
    optimizer = make_optimizer(optimizer_name, workload.model)
    sync = _synchronizer(device)
    _first_iteration(workload, optimizer, spec)

    untraced = []
    for _ in range(repeat):
        gc.collect()
        if sync:
            sync()
        t0 = time.perf_counter_ns()
        run_iteration(workload, optimizer)
        if sync:
            sync()
        untraced.append(time.perf_counter_ns() - t0)

    # The recorded iteration: garbage collection off so that releases happen where
    # reference counts drop, the same way every time.
    gc.collect()
    gc.disable()
    try:
        recorder = Recorder(synchronize=sync)
        recorder.annotate("START")
        for t in persistent_tensors(workload, optimizer):
            recorder.declare_constant(t)
        with recorder:
            run_iteration(workload, optimizer, before_backward=lambda: recorder.annotate("BACKWARD"))
        recorder.release_dead()
        timings = []
        for _ in range(repeat):
            timer = OpTimer(synchronize=sync)
            with timer:
                run_iteration(workload, optimizer)
            if timer.op_names != recorder.op_names:
                raise TraceError(f"{spec}: the operator sequence changed between iterations "
                                 f"({len(recorder.op_names)} then {len(timer.op_names)} operators); "
                                 "the tracer needs a model whose iteration is the same every time")
            timings.append(timer.op_times)
    finally:
        gc.enable()
    times = [int(round(statistics.median(column))) for column in zip(*timings)]

    lines = []
    for d in recorder.lines:
        if "TIME" in d:
            d = dict(d, TIME=str(times[d["TIME"]]))
        lines.append(_line(d))
    meta = dict(workload.description)
    meta.update({
        "format": "DTR log, ../shared/dtr-logs/README.md; one training iteration",
        "batch": batch,
        "optimizer": optimizer_name,
        "device": device,
        "repeat": repeat,
        "torch_version": torch.__version__,
        "torchvision_version": _torchvision_version(),
        "python": platform.python_version(),
        "cpu_model": _cpu_model(),
        "threads": torch.get_num_threads(),
        "date_utc": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "ops": len(recorder.op_names),
        "mutates": recorder.mutate_count,
        "forward_ops": recorder.backward_at,
        "constants": recorder.constant_count,
        "constant_bytes": recorder.constant_bytes,
        "tracer_peak_bytes": recorder.peak_bytes,
        "op_time_sum_ns": sum(times),
        "untraced_iteration_ns": int(statistics.median(untraced)),
        "untraced_iterations_ns": untraced,
    })
    if measure_rss and device == "cpu":
        meta["rss"] = _rss(spec, batch, list(input_shape) if input_shape else None, optimizer_name, device)
    meta["tracing_seconds"] = round(time.perf_counter() - started, 3)
    parent = os.path.dirname(os.path.abspath(out))
    os.makedirs(parent, exist_ok=True)
    _write_atomically(out + ".meta.json", json.dumps(meta, indent=2, sort_keys=True) + "\n")
    _write_atomically(out, "\n".join(lines) + "\n")
    log(f"memsim trace: {out}: {meta['ops']} ops ({meta['mutates']} MUTATE), {meta['constants']} constants "
        f"({meta['constant_bytes']} B), tracer peak {meta['tracer_peak_bytes']} B, op times {meta['op_time_sum_ns']} ns "
        f"vs untraced iteration {meta['untraced_iteration_ns']} ns, {meta['tracing_seconds']} s")
    return meta


def _torchvision_version() -> str:
    try:
        import torchvision

        return torchvision.__version__
    except ImportError:
        return "not installed"
