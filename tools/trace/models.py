"""What the tracer runs: a torchvision classification model or a user factory.

A workload is (model, inputs, labels, loss_fn): the iteration is
loss_fn(model(*inputs), labels).backward() followed by the optimizer step.
"""
import importlib.util
import inspect
import os
import sys
import traceback
from dataclasses import dataclass, field
from typing import Callable, List, Optional, Tuple


class TraceError(Exception):
    """Bad input: printed as one clear message, exit status 1."""


@dataclass
class Workload:
    model: object
    inputs: Tuple
    labels: object
    loss_fn: Callable
    description: dict = field(default_factory=dict)


# torchvision.models modules holding detection, segmentation, video... builders: not
# classification models, so not offered by name.
_NON_CLASSIFICATION = {"detection", "segmentation", "video", "quantization", "optical_flow"}
# Models whose builder expects a larger image than 224x224.
_DEFAULT_SHAPES = {"inception_v3": (3, 299, 299)}


def classification_models() -> List[str]:
    """Every classification builder of torchvision.models, by name, sorted."""
    import torchvision.models as tvm

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


def torchvision_workload(name: str, batch: int, input_shape: Optional[Tuple[int, ...]], device: str) -> Workload:
    import torch
    import torchvision.models as tvm

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
    if not os.path.isfile(path):
        raise TraceError(f"factory file '{path}' not found (from '{spec}')")
    module_name = "memsim_trace_factory_" + os.path.splitext(os.path.basename(path))[0]
    try:
        module_spec = importlib.util.spec_from_file_location(module_name, path)
        module = importlib.util.module_from_spec(module_spec)
        sys.modules[module_name] = module
        module_spec.loader.exec_module(module)
    except Exception:
        raise TraceError(f"factory file '{path}' raised while loading:\n{traceback.format_exc()}")
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
    except Exception:
        raise TraceError(f"{func_name}() in '{path}' raised:\n{traceback.format_exc()}")
    if not (isinstance(result, tuple) and len(result) == 4):
        raise TraceError(f"{func_name}() in '{path}' must return (model, inputs, labels, loss_fn), got {type(result).__name__}")
    model, inputs, labels, loss_fn = result
    if not isinstance(inputs, (tuple, list)):
        inputs = (inputs,)
    import torch

    shapes = [list(t.shape) for t in inputs if isinstance(t, torch.Tensor)]
    return Workload(model.to(device), tuple(t.to(device) if isinstance(t, torch.Tensor) else t for t in inputs),
                    labels.to(device) if isinstance(labels, torch.Tensor) else labels, loss_fn,
                    {"model": spec, "source": "factory", "input_shape": shapes[0] if len(shapes) == 1 else shapes})


def load_workload(spec: str, batch: int, input_shape, device: str) -> Workload:
    if spec.endswith(".py") or ".py:" in spec:
        if ":" not in spec or spec.endswith(".py"):
            raise TraceError(f"'{spec}': give the factory as FILE.py:function")
        return factory_workload(spec, batch, input_shape, device)
    return torchvision_workload(spec, batch, input_shape, device)
