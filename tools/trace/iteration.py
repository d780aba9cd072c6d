"""One training iteration, the same in every pass (warm-up, untraced, traced, timing).

The iteration ends with zero_grad(set_to_none=True): the gradients die at its end, as in
the steady state of `backward(); step(); zero_grad()` loops, so no gradient persists
from one iteration to the next (docs/tracing.md).
"""
import torch

from tools.trace.models import TraceError


def make_optimizer(name: str, model):
    params = [p for p in model.parameters() if p.requires_grad]
    if not params and name != "none":
        raise TraceError(f"the model has no parameter that requires grad, so --optimizer {name} has nothing to "
                         "update; give --optimizer none to trace the forward and backward passes alone")
    if name == "sgd":
        return torch.optim.SGD(params, lr=0.01)
    if name == "adam":
        return torch.optim.Adam(params, lr=1e-3)
    return None


class Step:
    """Which part of the iteration is running, for error messages."""
    name = "forward"


def run_iteration(workload, optimizer, before_backward=None, step: Step = None):
    step = step if step is not None else Step()
    torch.manual_seed(0)
    step.name = "forward"
    output = workload.model(*workload.inputs)
    step.name = "loss"
    loss = workload.loss_fn(output, workload.labels)
    del output
    if before_backward is not None:
        before_backward()
    step.name = "backward"
    loss.backward()
    del loss
    step.name = "optimizer step"
    if optimizer is not None:
        # The step without torch.optim's profiling wrapper, whose record_function would
        # log profiler handles (a zeros(1) tensor and a _record_function_enter op).
        unwrapped = getattr(type(optimizer).step, "__wrapped__", None)
        unwrapped(optimizer) if unwrapped is not None else optimizer.step()
    workload.model.zero_grad(set_to_none=True)


def persistent_tensors(workload, optimizer):
    """What exists before the iteration and outlives it: inputs, labels, parameters,
    buffers, optimizer state; in that order (the log's CONSTANT lines)."""
    found = [t for t in workload.inputs if isinstance(t, torch.Tensor)]
    if isinstance(workload.labels, torch.Tensor):
        found.append(workload.labels)
    found += [p for _, p in workload.model.named_parameters()]
    found += [b for _, b in workload.model.named_buffers()]
    if optimizer is not None:
        for p in (p for group in optimizer.param_groups for p in group["params"]):
            for key in sorted(optimizer.state.get(p, {})):
                value = optimizer.state[p][key]
                if isinstance(value, torch.Tensor):
                    found.append(value)
    return found
