"""memsim.trace: a training iteration of a live torch.nn.Module traced in this process into a
DTR log, by the same passes `memsim trace` runs (tools/trace/tracer.py), on the caller's
objects instead of a model re-imported from a file."""
import json
import os
import shutil
import sys
import tempfile
from typing import Any, Callable, Dict, Optional

import _memsim

from ._errors import TraceError, UsageError

OPTIMIZERS = ("sgd", "adam", "adamw", "none")


class Workload:
    """A traced training iteration: a DTR log and its sidecar.

    Use it as ``scenario['workload']`` (it stands for ``{'dtr_log': path}``), or keep the
    log with ``save(path)``. ``path`` is the log, ``meta`` the sidecar's dict."""

    def __init__(self, path: str, meta: Dict[str, Any], keep: Any = None):
        self.path = path
        self.meta = meta
        self._keep = keep  # the temporary folder holding the log, removed with this object

    def __memsim_workload__(self) -> Dict[str, str]:
        return {"dtr_log": os.path.abspath(self.path)}

    def save(self, path: str) -> "Workload":
        """Copies the log to ``path`` and its sidecar to ``path + '.meta.json'``; returns
        the Workload of the copy."""
        path = os.fspath(path)
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        shutil.copyfile(self.path, path)
        shutil.copyfile(self.path + ".meta.json", path + ".meta.json")
        return Workload(path, self.meta)

    @property
    def ops(self) -> int:
        return int(self.meta.get("ops", 0))

    def __repr__(self) -> str:
        return f"<memsim.Workload {self.meta.get('model', '')}: {self.ops} ops, {self.path}>"


def _tracer():
    """tools/trace from the source tree this module was built from."""
    root = _memsim.source_dir
    if root not in sys.path:
        sys.path.insert(0, root)
    from tools.trace import iteration, models, tracer

    return tracer, models, iteration


def trace(model, inputs, labels, loss_fn: Callable, optimizer: Any = None, micro_batches: int = 1, *,
          step: Optional[Callable] = None, out: Optional[str] = None, repeat: int = 3, name: Optional[str] = None,
          quiet: bool = True) -> Workload:
    """Traces one training iteration of a live ``torch.nn.Module`` into a DTR log, in this
    process, with the passes of ``memsim trace`` (docs/tracing.md; tools/trace/live.py):
    ``micro_batches`` times forward, ``loss_fn(output, labels)`` and backward, then the
    optimizer's step; the same model from a factory file gives ``memsim trace
    FILE.py:factory`` the same log (times aside: they are measured).

    ``inputs``: a tensor or a tuple of the forward's arguments. ``optimizer``: None (no
    step, like ``--optimizer none``), 'sgd', 'adam', 'adamw' (the tracer's own, as
    ``--optimizer``) or any ``torch.optim.Optimizer`` over the model's parameters.
    ``step``: a function that runs the step instead (the training step you wrote).
    ``out``: where the log goes (default: a temporary file that lives as long as the
    Workload). The resident-set pass of ``memsim trace`` re-imports the model from a
    file, so it is not run here."""
    import torch

    _, models, iteration = _tracer()
    from tools.trace import live
    from tools.trace.tracer import _write_outputs

    if not isinstance(model, torch.nn.Module):
        raise UsageError(f"model: expected a torch.nn.Module, got a {type(model).__name__}")
    if not callable(loss_fn):
        raise UsageError(f"loss_fn: expected a callable loss_fn(output, labels), got a {type(loss_fn).__name__}")
    if isinstance(micro_batches, bool) or not isinstance(micro_batches, int) or micro_batches < 1:
        raise UsageError(f"micro_batches: expected a positive int, got {micro_batches!r}")
    if isinstance(repeat, bool) or not isinstance(repeat, int) or repeat < 1:
        raise UsageError(f"repeat: expected a positive int, got {repeat!r}")
    if step is not None and not callable(step):
        raise UsageError(f"step: expected a callable step(), got a {type(step).__name__}")
    if optimizer is None:
        optimizer = "none"
    optimizer_label = None
    if isinstance(optimizer, str):
        if optimizer not in OPTIMIZERS:
            raise UsageError(f"optimizer: {optimizer!r} is not one of {', '.join(OPTIMIZERS)} "
                             "(or give a torch.optim.Optimizer)")
        optimizer_label = optimizer
        try:
            optimizer = iteration.make_optimizer(optimizer, model)
        except models.TraceError as e:
            raise TraceError(models.error_text(e)) from e
        if optimizer is None and step is None:
            step = lambda: None  # noqa: E731  --optimizer none: forward and backward alone
    elif not isinstance(optimizer, torch.optim.Optimizer):
        raise UsageError(f"optimizer: expected None, {', '.join(repr(o) for o in OPTIMIZERS)} or a "
                         f"torch.optim.Optimizer, got a {type(optimizer).__name__}")
    label = name or type(model).__name__
    keep = None
    if out is None:
        keep = tempfile.TemporaryDirectory(prefix="memsim-trace-")
        out = os.path.join(keep.name, f"{label}.log")
    out = os.fspath(out)
    try:
        lines, meta = live.trace_module(model, inputs, labels, loss_fn, optimizer=optimizer, step=step,
                                        micro_batches=micro_batches, repeat=repeat, name=label)
    except models.TraceError as e:
        raise TraceError(models.error_text(e)) from e
    except Exception as e:  # the model, its loss or its optimizer raised after the warm-up
        raise TraceError(f"{label}: {models.describe_exception(e)}; no log was written") from e
    if optimizer_label is not None:
        meta["optimizer"] = optimizer_label  # as --optimizer names it
    meta["source"] = "python"
    _write_outputs(out, "\n".join(lines) + "\n", json.dumps(meta, indent=2, sort_keys=True) + "\n")
    if not quiet:
        print(f"memsim.trace: {out}: {meta.get('ops')} ops")
    return Workload(out, meta, keep)
