"""The passes of one trace and the files they write (docs/tracing.md).

1. warm-up iteration (optimizer state appears, oneDNN primitives are created);
2. `repeat` untraced iterations: their median wall time goes into the sidecar;
3. one recorded iteration: the log's structure (names, sizes, releases);
4. `repeat` timing iterations: each operator's TIME is its median over them, measured
   around the operator call alone;
5. in a separate process, the resident-set high-water mark of one untraced iteration.
The log and the sidecar are written to temporary names and renamed at the end, both or
neither, so a failed trace never leaves a file behind.
"""
import datetime
import gc
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Optional

import torch

from tools.trace import rss_probe
from tools.trace.iteration import Step, make_optimizer, persistent_tensors, run_iteration
from tools.trace.models import TraceError, describe_exception, factory_path, load_workload
from tools.trace.progress import Progress, duration, size
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


# The operators' summed times and the untraced iteration's wall time may differ by this
# fraction before the tracer and `memsim info` warn (docs/tracing.md, "Operator times
# against the iteration"); sim/app/cli/info_command.cpp holds the same number.
OP_TIME_TOLERANCE = 0.25


def _line(d: dict) -> str:
    return json.dumps(d, sort_keys=True, separators=(",", ":"))


def temporary_name(path: str, pid: int) -> str:
    """Where `path` is written before its rename (sim/app/cli/trace_command.cpp removes these
    after stopping the tracer)."""
    return f"{path}.tmp-{pid}"


def write_atomically(files: dict):
    """Writes every path of `files` (path -> text) or none: each to a temporary name in its
    folder, then renamed, the first path last (so the log never appears without its
    sidecar). On failure nothing written here is left, and the OSError is raised."""
    temps = {path: temporary_name(path, os.getpid()) for path in files}
    renamed = []
    try:
        for path in reversed(list(files)):
            with open(temps[path], "w") as f:
                f.write(files[path])
        for path in reversed(list(files)):
            os.replace(temps[path], path)
            renamed.append(path)
    except BaseException:
        for path in renamed:
            os.remove(path)
        raise
    finally:
        for tmp in temps.values():
            if os.path.lexists(tmp):
                os.remove(tmp)


def check_output(out: str):
    """Refuses, before minutes of tracing, an --out the log cannot be written to."""
    path = os.path.abspath(out)
    if os.path.isdir(path):
        raise TraceError(f"--out {out} is a directory; give the log's file name")
    if os.path.isdir(path + ".meta.json"):
        raise TraceError(f"--out {out}: its sidecar {out}.meta.json is a directory")
    existing = os.path.dirname(path)
    while not os.path.lexists(existing):
        existing = os.path.dirname(existing)
    if not os.path.isdir(existing):
        raise TraceError(f"--out {out}: {existing} is not a directory")
    try:
        fd, probe = tempfile.mkstemp(dir=existing, prefix=".memsim-trace-probe-")
        os.close(fd)
        os.remove(probe)
    except OSError as e:
        raise TraceError(f"--out {out}: cannot create files in {existing}: {e.strerror}")


def _write_outputs(out: str, log_text: str, meta_text: str):
    try:
        os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
        write_atomically({out: log_text, out + ".meta.json": meta_text})
    except OSError as e:
        raise TraceError(f"cannot write {e.filename or out}: {e.strerror or e}; nothing was written")


def _synchronizer(device: str):
    return torch.cuda.synchronize if device == "cuda" else None


def _first_iteration(workload, optimizer, spec):
    """The warm-up iteration; an exception here is the model rejecting its input, or its
    loss or backward pass failing."""
    step = Step()
    try:
        run_iteration(workload, optimizer, step=step)
    except Exception as e:  # the model's own error, then ours
        path = factory_path(spec)
        shape = workload.description.get("input_shape")
        if step.name == "forward":
            raise TraceError(f"{spec} rejected input of shape {shape}: the forward pass {describe_exception(e, path)}", e)
        hint = {"backward": " (the loss must be a scalar that depends on a tensor requiring grad)"}.get(step.name, "")
        raise TraceError(f"{spec}: the {step.name} of the first iteration {describe_exception(e, path)}{hint}", e)


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


def op_time_warning(op_time_sum_ns: int, untraced_ns: int) -> Optional[str]:
    """The warning when the operators' times and the untraced iteration disagree by more
    than OP_TIME_TOLERANCE, with what it means for memsim's answers; None otherwise."""
    share = op_time_sum_ns / untraced_ns
    if abs(share - 1) <= OP_TIME_TOLERANCE:
        return None
    why = ("time outside the operators (Python, the autograd engine) that the log has no place for"
           if share < 1 else "the machine's load changing between the untraced and the timing passes")
    return (f"the operators' times sum to {duration(op_time_sum_ns)} but the untraced iteration took "
            f"{duration(untraced_ns)} ({share:.2f}x, outside the tolerance of {OP_TIME_TOLERANCE:.0%}): "
            f"memsim replays operator times, so `memsim run` reports {duration(op_time_sum_ns)} as the no-policy time "
            f"and every overhead is relative to it; most likely {why} (a quiet machine or a larger --repeat narrows it)")


def trace(spec: str, out: str, batch: int = 1, input_shape=None, optimizer_name: str = "sgd",
          device: str = "cpu", repeat: int = 3, measure_rss: bool = True, log=print, progress: Progress = None) -> dict:
    if batch < 1:
        raise TraceError(f"--batch must be >= 1, got {batch}")
    if repeat < 1:
        raise TraceError(f"--repeat must be >= 1, got {repeat}")
    if device == "cuda" and not torch.cuda.is_available():
        raise TraceError("--device cuda: torch sees no CUDA device here; use --device cpu")
    check_output(out)
    measure_rss = measure_rss and device == "cpu"
    if progress is None:
        progress = Progress(6 if measure_rss else 5, stream=None)
    started = time.perf_counter()
    progress.start(f"building {spec} (batch {batch})")
    workload = load_workload(spec, batch, input_shape, device)
    workload.model.train()
    try:
        optimizer = make_optimizer(optimizer_name, workload.model)
    except TraceError as e:
        raise TraceError(f"{spec}: {e}")
    sync = _synchronizer(device)
    progress.start("warm-up iteration")
    _first_iteration(workload, optimizer, spec)

    progress.start(f"{repeat} untraced iteration{'s' if repeat > 1 else ''} (the sidecar's untraced_iteration_ns)")
    untraced = []
    for k in range(repeat):
        gc.collect()
        if sync:
            sync()
        t0 = time.perf_counter_ns()
        run_iteration(workload, optimizer)
        if sync:
            sync()
        untraced.append(time.perf_counter_ns() - t0)
        progress.note(f"untraced iteration {k + 1} of {repeat}: {duration(untraced[-1])}")

    # The recorded iteration: garbage collection off so that releases happen where
    # reference counts drop, the same way every time.
    gc.collect()
    gc.disable()
    try:
        progress.start("recorded iteration (names, sizes, releases)")
        recorder = Recorder(synchronize=sync, on_operator=progress.operator_done)
        recorder.annotate("START")
        for t in persistent_tensors(workload, optimizer):
            recorder.declare_constant(t)
        with recorder:
            run_iteration(workload, optimizer, before_backward=lambda: recorder.annotate("BACKWARD"))
        recorder.release_dead()
        progress.note(f"{len(recorder.op_names)} operators recorded")
        timings = []
        progress.start(f"{repeat} timing iteration{'s' if repeat > 1 else ''} (each operator's TIME is the median)",
                       total_ops=len(recorder.op_names))
        for k in range(repeat):
            timer = OpTimer(synchronize=sync, on_operator=progress.operator_done)
            with timer:
                run_iteration(workload, optimizer)
            if timer.op_names != recorder.op_names:
                raise TraceError(f"{spec}: the operator sequence changed between iterations "
                                 f"({len(recorder.op_names)} then {len(timer.op_names)} operators); "
                                 "the tracer needs a model whose iteration is the same every time")
            timings.append(timer.op_times)
            progress.note(f"timing iteration {k + 1} of {repeat}: operators sum to {duration(sum(timer.op_times))}")
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
    if measure_rss:
        progress.start("resident-set measurement of one untraced iteration, in its own process")
        meta["rss"] = _rss(spec, batch, list(input_shape) if input_shape else None, optimizer_name, device)
    meta["tracing_seconds"] = round(time.perf_counter() - started, 3)
    _write_outputs(out, "\n".join(lines) + "\n", json.dumps(meta, indent=2, sort_keys=True) + "\n")
    share = meta["op_time_sum_ns"] / meta["untraced_iteration_ns"]
    log(f"memsim trace: {out}: {meta['ops']} ops ({meta['mutates']} MUTATE), {meta['constants']} constants "
        f"({size(meta['constant_bytes'])}), tracer peak {size(meta['tracer_peak_bytes'])}, "
        f"operators {duration(meta['op_time_sum_ns'])} against an untraced iteration of "
        f"{duration(meta['untraced_iteration_ns'])} ({share:.2f}x), traced in {duration(meta['tracing_seconds'] * 1e9)}")
    warning = op_time_warning(meta["op_time_sum_ns"], meta["untraced_iteration_ns"])
    if warning:
        log(f"memsim trace: warning: {warning}")
    return meta


def _torchvision_version() -> str:
    try:
        import torchvision

        return torchvision.__version__
    except ImportError:
        return "not installed"
