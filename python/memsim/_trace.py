"""memsim.trace: a training iteration of a live torch.nn.Module traced in this process into a
DTR log, by the same passes `memsim trace` runs (tools/trace/tracer.py), on the caller's
objects instead of a model re-imported from a file."""
import contextlib
import json
import os
import shutil
import sys
import tempfile
from typing import Any, Callable, Dict, Optional

import _memsim

from ._errors import TraceError, UsageError

OPTIMIZERS = ("sgd", "adam", "none")


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


@contextlib.contextmanager
def _substituted(module, name: str, value):
    old = getattr(module, name)
    setattr(module, name, value)
    try:
        yield
    finally:
        setattr(module, name, old)


def trace(model, inputs, labels, loss_fn: Callable, optimizer: Any = None, micro_batches: int = 1, *,
          out: Optional[str] = None, repeat: int = 3, name: Optional[str] = None, quiet: bool = True) -> Workload:
    """Traces one training iteration (forward, ``loss_fn(output, labels)``, backward, the
    optimizer's step) of a live ``torch.nn.Module`` into a DTR log, in this process, with
    the passes of ``memsim trace`` (docs/tracing.md); the same model from a factory file
    gives ``memsim trace FILE.py:factory`` the same log (times aside: they are measured).

    ``inputs``: a tensor or a tuple of the forward's arguments. ``optimizer``: None (no
    step, like ``--optimizer none``), 'sgd', 'adam' (the tracer's own, as ``--optimizer``)
    or a ``torch.optim.Optimizer`` over the model's parameters. ``out``: where the log goes
    (default: a temporary file that lives as long as the Workload). The resident-set pass
    of ``memsim trace`` re-imports the model from a file, so it is not run here."""
    import torch

    tracer, models, iteration = _tracer()
    if not isinstance(model, torch.nn.Module):
        raise UsageError(f"model: expected a torch.nn.Module, got a {type(model).__name__}")
    if not callable(loss_fn):
        raise UsageError(f"loss_fn: expected a callable loss_fn(output, labels), got a {type(loss_fn).__name__}")
    if isinstance(micro_batches, bool) or not isinstance(micro_batches, int) or micro_batches < 1:
        raise UsageError(f"micro_batches: expected a positive int, got {micro_batches!r}")
    if micro_batches != 1:
        raise UsageError(f"micro_batches={micro_batches}: the tracer records one batch per iteration; "
                         "gradient accumulation over micro-batches is not traced yet (give 1)")
    if isinstance(repeat, bool) or not isinstance(repeat, int) or repeat < 1:
        raise UsageError(f"repeat: expected a positive int, got {repeat!r}")
    if optimizer is None:
        optimizer = "none"
    if isinstance(optimizer, str):
        if optimizer not in OPTIMIZERS:
            raise UsageError(f"optimizer: {optimizer!r} is not one of {', '.join(OPTIMIZERS)} "
                             "(or give a torch.optim.Optimizer)")
        make_optimizer, optimizer_name = iteration.make_optimizer, optimizer
    elif isinstance(optimizer, torch.optim.Optimizer):
        given = optimizer
        make_optimizer, optimizer_name = (lambda _name, _model: given), type(optimizer).__name__.lower()
    else:
        raise UsageError(f"optimizer: expected None, 'sgd', 'adam' or a torch.optim.Optimizer, "
                         f"got a {type(optimizer).__name__}")
    if not isinstance(inputs, (tuple, list)):
        inputs = (inputs,)
    inputs = tuple(inputs)
    shapes = [list(t.shape) for t in inputs if isinstance(t, torch.Tensor)]
    label = name or type(model).__name__
    live = models.Workload(model, inputs, labels, loss_fn,
                           {"model": label, "source": "python",
                            "input_shape": shapes[0] if len(shapes) == 1 else shapes})
    batch = shapes[0][0] if shapes and shapes[0] else 1
    keep = None
    if out is None:
        keep = tempfile.TemporaryDirectory(prefix="memsim-trace-")
        out = os.path.join(keep.name, f"{label}.log")
    out = os.fspath(out)
    lines = []
    try:
        with _substituted(tracer, "load_workload", lambda *_args: live), \
                _substituted(tracer, "make_optimizer", make_optimizer):
            meta = tracer.trace(label, out, batch=batch, optimizer_name=optimizer_name, repeat=repeat,
                                measure_rss=False, log=lines.append if quiet else print)
    except models.TraceError as e:
        raise TraceError(models.error_text(e)) from e
    except Exception as e:  # the model, its loss or its optimizer raised after the warm-up
        raise TraceError(f"{label}: {models.describe_exception(e)}; no log was written") from e
    with open(out + ".meta.json") as f:
        meta = json.load(f)
    return Workload(out, meta, keep)
