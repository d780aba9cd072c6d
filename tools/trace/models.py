"""What the tracer runs: a torchvision classification model or a user factory.

A workload is (model, inputs, labels, loss_fn[, optimizer[, step]]): the iteration is
loss_fn(model(*inputs), labels).backward() (once per micro-batch) followed by the
optimizer step: step() when the factory gives one, else optimizer.step().
"""
import importlib.util
import inspect
import os
import sys
import traceback
from dataclasses import dataclass, field
from typing import Callable, List, Optional, Tuple


# The optimizer steps the tracer can record (tools/trace/iteration.py builds them).
OPTIMIZERS = ("sgd", "adam", "adamw", "none")


class TraceError(Exception):
    """Bad input: printed as one clear message, exit status 1. `cause`: the exception
    raised by the user's code, if that is what failed (its traceback is shown on request)."""

    def __init__(self, message: str, cause: Optional[BaseException] = None):
        super().__init__(message)
        self.cause = cause


# Set to 1 to see the whole Python traceback of an error raised by the user's code.
TRACEBACK_VARIABLE = "MEMSIM_TRACE_TRACEBACK"


def describe_exception(e: BaseException, path: Optional[str] = None) -> str:
    """One line for an exception raised by user code: its type and message, and where in
    the user's file `path` it was raised (its innermost frame there, if any)."""
    if isinstance(e, SystemExit):
        text = f"called sys.exit({e.code!r})"
    else:
        message = " ".join(str(e).split())
        text = f"raised {type(e).__name__}" + (f": {message}" if message else "")
    if path is not None:
        mine = [f for f in traceback.extract_tb(e.__traceback__) if os.path.abspath(f.filename) == os.path.abspath(path)]
        if mine:
            text += f" (at {mine[-1].filename}:{mine[-1].lineno})"
    return text


def error_text(e: TraceError) -> str:
    """What `memsim trace` prints for `e`: one line, and for an error of the user's code
    a pointer to its whole traceback (printed after the line with MEMSIM_TRACE_TRACEBACK=1)."""
    if e.cause is None:
        return str(e)
    if os.environ.get(TRACEBACK_VARIABLE) != "1":
        return f"{e} ({TRACEBACK_VARIABLE}=1 shows the whole traceback)"
    return f"{e}\n" + "".join(traceback.format_exception(type(e.cause), e.cause, e.cause.__traceback__)).rstrip()


@dataclass
class Workload:
    model: object
    inputs: Tuple
    labels: object
    loss_fn: Callable
    description: dict = field(default_factory=dict)
    optimizer: object = None  # the factory's own torch.optim optimizer, if it returns one
    step_fn: Optional[Callable] = None  # the factory's own optimizer step, if it returns one


# torchvision.models modules holding detection, segmentation, video... builders: not
# classification models, so not offered by name.
_NON_CLASSIFICATION = {"detection", "segmentation", "video", "quantization", "optical_flow"}
# Models whose builder expects a larger image than 224x224.
_DEFAULT_SHAPES = {"inception_v3": (3, 299, 299)}


def classification_models() -> List[str]:
    """Every classification builder of torchvision.models, by name, sorted."""
    tvm = _torchvision_models()

    names = []
    for name, fn in vars(tvm).items():
        if name.startswith("_") or not inspect.isfunction(fn):
            continue
        parts = fn.__module__.split(".")
        if len(parts) < 3 or parts[0] != "torchvision" or parts[2].startswith("_") or parts[2] in _NON_CLASSIFICATION:
            continue
        names.append(name)
    return sorted(names)


def default_input_shape(name: str) -> Tuple[int, ...]:
    return _DEFAULT_SHAPES.get(name, (3, 224, 224))


def _logits(output):
    """googlenet and inception_v3 return a named tuple in training mode."""
    if hasattr(output, "logits"):
        return output.logits
    if isinstance(output, (tuple, list)):
        return output[0]
    return output


def _classification_loss(output, labels):
    import torch.nn.functional as F

    return F.cross_entropy(_logits(output), labels)


def _torchvision_models():
    try:
        import torchvision.models
    except ImportError as e:
        raise TraceError(f"torchvision cannot be imported by {sys.executable} ({e}); scripts/setup.sh installs "
                         "Debian's python3-torchvision, or give the model as FILE.py:factory")
    return torchvision.models


def torchvision_workload(name: str, batch: int, input_shape: Optional[Tuple[int, ...]], device: str) -> Workload:
    import torch

    tvm = _torchvision_models()

    valid = classification_models()
    if name not in valid:
        raise TraceError(f"unknown model '{name}'; valid torchvision classification models: {', '.join(valid)}; "
                         "or give FILE.py:factory")
    shape = tuple(input_shape) if input_shape else default_input_shape(name)
    kwargs = {"weights": None}
    if name in ("googlenet", "inception_v3"):
        kwargs["init_weights"] = True
    if name.startswith("vit_") and input_shape:  # a ViT is built for one image size
        kwargs["image_size"] = shape[-1]
    model = getattr(tvm, name)(**kwargs).to(device)
    generator = torch.Generator().manual_seed(0)
    inputs = (torch.randn((batch,) + shape, generator=generator).to(device),)
    labels = torch.randint(0, 1000, (batch,), generator=generator).to(device)
    return Workload(model, inputs, labels, _classification_loss,
                    {"model": name, "source": "torchvision", "input_shape": list((batch,) + shape)})


def factory_workload(spec: str, batch: int, input_shape: Optional[Tuple[int, ...]], device: str) -> Workload:
    """FILE.py:factory -> factory(**accepted of batch, input_shape, device)."""
    path, _, func_name = spec.rpartition(":")
    if not os.path.exists(path):
        raise TraceError(f"factory file '{path}' not found (from '{spec}')")
    if not os.path.isfile(path):
        raise TraceError(f"factory file '{path}' is not a regular file (from '{spec}')")
    module_name = "memsim_trace_factory_" + os.path.splitext(os.path.basename(path))[0]
    try:
        module_spec = importlib.util.spec_from_file_location(module_name, path)
        module = importlib.util.module_from_spec(module_spec)
        sys.modules[module_name] = module
        module_spec.loader.exec_module(module)
    except (Exception, SystemExit) as e:  # a module that ends the process is an error too
        raise TraceError(f"factory file '{path}' {describe_exception(e, path)} while loading", e)
    factory = getattr(module, func_name, None)
    if not callable(factory):
        names = sorted(n for n, v in vars(module).items() if callable(v) and not n.startswith("_")
                       and getattr(v, "__module__", None) == module_name)
        raise TraceError(f"'{path}' has no function '{func_name}'; functions defined there: {', '.join(names) or 'none'}")
    offered = {"batch": batch, "device": device}
    if input_shape:
        offered["input_shape"] = tuple(input_shape)
    params = inspect.signature(factory).parameters
    if input_shape and "input_shape" not in params:
        raise TraceError(f"--input-shape given but {func_name}() in '{path}' takes no input_shape parameter")
    try:
        result = factory(**{k: v for k, v in offered.items() if k in params})
    except (Exception, SystemExit) as e:
        raise TraceError(f"{func_name}() in '{path}' {describe_exception(e, path)}", e)
    model, inputs, labels, loss_fn, optimizer, step_fn = _factory_result(result, f"{func_name}() in '{path}'")
    if not isinstance(inputs, (tuple, list)):
        inputs = (inputs,)
    import torch

    if not isinstance(model, torch.nn.Module):
        raise TraceError(f"{func_name}() in '{path}' returned a model of type {type(model).__name__}; "
                         "the model must be a torch.nn.Module")
    if not callable(loss_fn):
        raise TraceError(f"{func_name}() in '{path}' returned a loss_fn of type {type(loss_fn).__name__}; "
                         "it must be callable as loss_fn(output, labels)")
    if optimizer is not None and not isinstance(optimizer, torch.optim.Optimizer):
        raise TraceError(f"{func_name}() in '{path}' returned an optimizer of type {type(optimizer).__name__}; "
                         "it must be a torch.optim.Optimizer (or None)")
    if step_fn is not None and not callable(step_fn):
        raise TraceError(f"{func_name}() in '{path}' returned a step of type {type(step_fn).__name__}; "
                         "it must be callable as step() (or None)")

    shapes = [list(t.shape) for t in inputs if isinstance(t, torch.Tensor)]
    return Workload(model.to(device), tuple(t.to(device) if isinstance(t, torch.Tensor) else t for t in inputs),
                    labels.to(device) if isinstance(labels, torch.Tensor) else labels, loss_fn,
                    {"model": spec, "source": "factory", "input_shape": shapes[0] if len(shapes) == 1 else shapes},
                    optimizer, step_fn)


_FACTORY_KEYS = ("model", "inputs", "labels", "loss_fn", "optimizer", "step")


def _factory_result(result, who: str):
    """(model, inputs, labels, loss_fn, optimizer, step) from a factory's tuple of 4 to 6
    entries or its dict with those keys (optimizer and step optional)."""
    if isinstance(result, dict):
        unknown = sorted(set(result) - set(_FACTORY_KEYS))
        missing = [k for k in _FACTORY_KEYS[:4] if k not in result]
        if unknown or missing:
            raise TraceError(f"{who} returned a dict with " + "; ".join(
                ([f"unknown keys {', '.join(unknown)}"] if unknown else []) +
                ([f"no {', '.join(missing)}"] if missing else [])) + f" (keys: {', '.join(_FACTORY_KEYS)})")
        return tuple(result.get(k) for k in _FACTORY_KEYS)
    if isinstance(result, tuple) and 4 <= len(result) <= 6:
        return tuple(result) + (None,) * (6 - len(result))
    got = f"a tuple of {len(result)}" if isinstance(result, tuple) else type(result).__name__
    raise TraceError(f"{who} must return (model, inputs, labels, loss_fn[, optimizer[, step]]) or a dict with "
                     f"those keys, got {got}")


def factory_path(spec: str) -> Optional[str]:
    """FILE.py of a FILE.py:factory spec, else None."""
    return spec.rpartition(":")[0] if ".py:" in spec else None


def load_workload(spec: str, batch: int, input_shape, device: str) -> Workload:
    if spec.endswith(".py") or ".py:" in spec:
        if ":" not in spec or spec.endswith(".py"):
            raise TraceError(f"'{spec}': give the factory as FILE.py:function")
        return factory_workload(spec, batch, input_shape, device)
    return torchvision_workload(spec, batch, input_shape, device)
