"""Tracing a live nn.Module from Python, without a factory file (the Python module wraps
this; docs/tracing.md, "From Python"):

    lines, meta = trace_module(model, (tokens,), labels, loss_fn, optimizer=opt, micro_batches=2)

The same passes as `memsim trace` but the resident-set one (it needs a process that can
build the model again): the warm-up, `repeat` untraced iterations, the recorded one and
`repeat` timing ones. Returns the log's lines (text, one JSON object each, no newline)
and its sidecar (a dict); with `out`, writes both files the way `memsim trace` does.
"""
import json
import time
from typing import Callable, List, Optional, Sequence, Tuple

import torch

from tools.trace.models import TraceError, Workload
from tools.trace.progress import Progress
from tools.trace.tracer import _write_outputs, check_output, choose_optimizer, log_and_sidecar, record_iteration


def trace_module(model: torch.nn.Module, inputs: Sequence, labels, loss_fn: Callable, optimizer=None,
                 step: Optional[Callable] = None, micro_batches: int = 1, repeat: int = 3, device: str = "cpu",
                 out: Optional[str] = None, name: str = "module") -> Tuple[List[str], dict]:
    """Traces one training iteration of `model`: `micro_batches` times loss_fn(model(*inputs),
    labels).backward(), then step() if given, else optimizer.step() if given, else an SGD
    step (lr 0.01) built here. `name` is the sidecar's "model"."""
    if not isinstance(model, torch.nn.Module):
        raise TraceError(f"trace_module: the model must be a torch.nn.Module, got {type(model).__name__}")
    if micro_batches < 1 or repeat < 1:
        raise TraceError(f"trace_module: micro_batches and repeat must be >= 1, got {micro_batches} and {repeat}")
    if optimizer is not None and not isinstance(optimizer, torch.optim.Optimizer):
        raise TraceError(f"trace_module: optimizer must be a torch.optim.Optimizer, got {type(optimizer).__name__}")
    if out is not None:
        check_output(out)
    inputs = tuple(inputs) if isinstance(inputs, (tuple, list)) else (inputs,)
    shapes = [list(t.shape) for t in inputs if isinstance(t, torch.Tensor)]
    workload = Workload(model, inputs, labels, loss_fn,
                        {"model": name, "source": "module", "input_shape": shapes[0] if len(shapes) == 1 else shapes},
                        optimizer, step)
    model.train()
    chosen, label = choose_optimizer(workload, None, name)
    label = label.replace("the factory's", "given")
    started = time.perf_counter()
    progress = Progress(5, stream=None)
    recorder, times, untraced = record_iteration(workload, chosen, name, repeat, device, micro_batches, progress)
    batch = shapes[0][0] if shapes and shapes[0] else 1
    lines, meta = log_and_sidecar(workload, recorder, times, untraced, batch, label, device, repeat, micro_batches)
    meta["tracing_seconds"] = round(time.perf_counter() - started, 3)
    if out is not None:
        _write_outputs(out, "\n".join(lines) + "\n", json.dumps(meta, indent=2, sort_keys=True) + "\n")
    return lines, meta
