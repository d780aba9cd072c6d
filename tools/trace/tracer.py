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
import importlib.machinery
import importlib.metadata
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
from tools.trace.checkpointing import recording_checkpoints
from tools.trace.iteration import Hooks, Step, make_optimizer, persistent_tensors, run_iteration
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


def _first_iteration(workload, optimizer, spec, micro_batches):
    """The warm-up iteration; an exception here is the model rejecting its input, or its
    loss or backward pass failing."""
    step = Step()
    try:
        run_iteration(workload, optimizer, step=step, micro_batches=micro_batches)
    except Exception as e:  # the model's own error, then ours
        path = factory_path(spec)
        shape = workload.description.get("input_shape")
        if step.name == "forward":
            raise TraceError(f"{spec} rejected input of shape {shape}: the forward pass {describe_exception(e, path)}", e)
        hint = " (the loss must be a scalar that depends on a tensor requiring grad)" if step.name.startswith("backward") else ""
        raise TraceError(f"{spec}: the {step.name} of the first iteration {describe_exception(e, path)}{hint}", e)


def choose_optimizer(workload, optimizer_name: Optional[str], spec: str):
    """(the optimizer the iteration steps, its name for the sidecar): the factory's own
    when it returns one (then --optimizer must not be given), else --optimizer's (sgd by
    default)."""
    own = workload.optimizer
    if (own is not None or workload.step_fn is not None) and optimizer_name is not None:
        what = f"its own optimizer ({type(own).__name__})" if own is not None else "its own step function"
        raise TraceError(f"{spec} returns {what}, so --optimizer {optimizer_name} has nothing to choose; leave "
                         "--optimizer out (it is for factories without an optimizer)")
    if own is not None:
        return own, type(own).__name__ + (" (the factory's, with its step function)" if workload.step_fn else
                                          " (the factory's)")
    if workload.step_fn is not None:
        return None, "the factory's step function"
    try:
        return make_optimizer(optimizer_name or "sgd", workload.model), optimizer_name or "sgd"
    except TraceError as e:
        raise TraceError(f"{spec}: {e}")


def _rss(spec, batch, input_shape, optimizer_name, device, micro_batches, pass_label):
    """The resident-set pass, in its own process. Its answer comes back in a file, never
    through its stdout, which belongs to the model (a model that prints must not break it)."""
    with tempfile.TemporaryDirectory(prefix="memsim-rss-") as folder:
        answer = os.path.join(folder, "answer.json")
        request = json.dumps({"model": spec, "batch": batch, "input_shape": input_shape, "optimizer": optimizer_name,
                              "device": device, "micro_batches": micro_batches, "answer": answer})
        env = dict(os.environ, **rss_probe.ENVIRONMENT)
        env["PYTHONPATH"] = REPO_ROOT + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
        done = subprocess.run([sys.executable, "-m", "tools.trace.rss_probe", request], env=env, cwd=os.getcwd(),
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        try:
            with open(answer) as f:
                result = json.load(f)
        except (OSError, ValueError):
            last = done.stderr.strip().splitlines()[-1] if done.stderr.strip() else f"exit status {done.returncode}"
            result = {"error": f"{pass_label} ended without an answer: {last}"}
    if "error" in result:
        result["error"] = f"{pass_label}: {result['error']}" if not result["error"].startswith(pass_label) else result["error"]
    return result


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


def record_iteration(workload, optimizer, spec: str, repeat: int, device: str, micro_batches: int, progress: Progress):
    """Passes 2 to 5 (docs/tracing.md): the warm-up, the untraced iterations, the recorded
    one and the timing ones. Returns (the recorder, each operator's median time in ns,
    the untraced iterations' times in ns)."""
    sync = _synchronizer(device)
    progress.start("warm-up iteration")
    _first_iteration(workload, optimizer, spec, micro_batches)

    progress.start(f"{repeat} untraced iteration{'s' if repeat > 1 else ''} (the sidecar's untraced_iteration_ns)")
    untraced = []
    for k in range(repeat):
        gc.collect()
        if sync:
            sync()
        t0 = time.perf_counter_ns()
        run_iteration(workload, optimizer, micro_batches=micro_batches)
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
        for t, role in persistent_tensors(workload, optimizer):
            recorder.declare_constant(t, role)
        with recorder, recording_checkpoints(recorder):
            run_iteration(workload, optimizer, hooks=_recording_hooks(recorder, workload, micro_batches),
                          micro_batches=micro_batches)
        recorder.release_dead()
        progress.note(f"{len(recorder.op_names)} operators recorded")
        timings = []
        progress.start(f"{repeat} timing iteration{'s' if repeat > 1 else ''} (each operator's TIME is the median)",
                       total_ops=len(recorder.op_names))
        for k in range(repeat):
            timer = OpTimer(synchronize=sync, on_operator=progress.operator_done)
            with timer:
                run_iteration(workload, optimizer, micro_batches=micro_batches)
            if timer.op_names != recorder.op_names:
                raise TraceError(f"{spec}: the operator sequence changed between iterations "
                                 f"({len(recorder.op_names)} then {len(timer.op_names)} operators); "
                                 "the tracer needs a model whose iteration is the same every time")
            timings.append(timer.op_times)
            progress.note(f"timing iteration {k + 1} of {repeat}: operators sum to {duration(sum(timer.op_times))}")
    finally:
        gc.enable()
    times = [int(round(statistics.median(column))) for column in zip(*timings)]
    return recorder, times, untraced


def log_and_sidecar(workload, recorder, times, untraced, batch, optimizer_label: str, device: str, repeat: int,
                    micro_batches: int):
    """The log's lines (text, each operator's TIME its median) and the sidecar (a dict,
    without the resident-set pass and the tracing time)."""
    lines = []
    for d in recorder.lines:
        if "TIME" in d:
            d = dict(d, TIME=str(times[d["TIME"]]))
        lines.append(_line(d))
    meta = dict(workload.description)
    meta.update({
        "format": "DTR log, ../shared/dtr-logs/README.md; one training iteration",
        "batch": batch,
        "optimizer": optimizer_label,
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
    if micro_batches > 1:
        meta["micro_batches"] = micro_batches
    if recorder.recomputed_count:
        meta["recomputed_ops"] = recorder.recomputed_count  # torch.utils.checkpoint's re-run forward
    return lines, meta


def trace(spec: str, out: str, batch: int = 1, input_shape=None, optimizer_name: Optional[str] = None,
          device: str = "cpu", repeat: int = 3, measure_rss: bool = True, log=print, progress: Progress = None,
          micro_batches: int = 1) -> dict:
    """Traces `spec` (a torchvision model name or FILE.py:factory) into the log `out` and
    its sidecar; returns the sidecar's content."""
    if batch < 1:
        raise TraceError(f"--batch must be >= 1, got {batch}")
    if micro_batches < 1:
        raise TraceError(f"--micro-batches must be >= 1, got {micro_batches}")
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
    optimizer, optimizer_label = choose_optimizer(workload, optimizer_name, spec)
    recorder, times, untraced = record_iteration(workload, optimizer, spec, repeat, device, micro_batches, progress)

    lines, meta = log_and_sidecar(workload, recorder, times, untraced, batch, optimizer_label, device, repeat,
                                  micro_batches)
    if measure_rss:
        progress.start("resident-set measurement of one untraced iteration, in its own process")
        meta["rss"] = _rss(spec, batch, list(input_shape) if input_shape else None, optimizer_name, device,
                           micro_batches, f"pass {progress.current} of {progress.passes} ({progress.what})")
    if "error" in meta.get("rss", {}):
        log(f"memsim trace: warning: no resident-set measurement: {meta['rss']['error']}")
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


def _recording_hooks(recorder, workload, micro_batches: int) -> Hooks:
    hooks = Hooks()
    if micro_batches > 1:
        hooks.micro_batch = lambda k: recorder.annotate("MICRO_BATCH")
    hooks.backward = lambda k: recorder.annotate("BACKWARD")

    def before_step():
        recorder.mark_gradients([p.grad for p in workload.model.parameters() if p.grad is not None])
        recorder.start_step()

    hooks.step = before_step
    return hooks


def _torchvision_version() -> str:
    """The version of the torchvision this interpreter imports. A model file that does not
    use torchvision does not pay for importing it (0.15-0.2 s) when the installed
    package's metadata describes that very package."""
    if "torchvision" not in sys.modules:
        found = installed_version("torchvision")
        if found is not None:
            return found
    try:
        import torchvision

        return torchvision.__version__
    except ImportError:
        return "not installed"


def installed_version(package: str) -> Optional[str]:
    """`package`'s version from its installed metadata, without importing it, when that
    metadata belongs to the copy an import would load; "not installed" when no copy can be
    found; None when that cannot be told without importing it (a copy on PYTHONPATH with
    no metadata, shadowing the installed one)."""
    spec = importlib.machinery.PathFinder.find_spec(package)  # sys.path's copy, imported or not
    if spec is None:
        return "not installed"
    try:
        dist = importlib.metadata.distribution(package)
    except importlib.metadata.PackageNotFoundError:
        return None
    init = os.path.realpath(dist.locate_file(os.path.join(package, "__init__.py")))
    return dist.version if spec.origin and init == os.path.realpath(spec.origin) else None
