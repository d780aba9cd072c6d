"""One training iteration, the same in every pass (warm-up, untraced, traced, timing).

An iteration is K micro-batches (--micro-batches K, gradient accumulation: each a
forward pass, the loss and a backward pass into the same .grad), then one optimizer
step: the factory's own step function if it returns one, else its own optimizer's step,
else the --optimizer built here. It ends with zero_grad(set_to_none=True): the gradients
die at its end, as in the steady state of `backward(); step(); zero_grad()` loops, so no
gradient persists from one iteration to the next (docs/tracing.md).
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
    if name == "adamw":
        return torch.optim.AdamW(params, lr=1e-3, weight_decay=0.01)
    return None


class Step:
    """Which part of the iteration is running, for error messages."""
    name = "forward"


class Hooks:
    """What the recorded iteration marks in the log; every hook is optional."""
    micro_batch = None   # micro_batch(k) before micro-batch k's forward (k from 0)
    backward = None      # backward(k) before micro-batch k's backward
    step = None          # step() after the last backward, before the optimizer step


def _optimizer_step(workload, optimizer):
    if workload.step_fn is not None:
        workload.step_fn()
        return
    if optimizer is None:
        return
    # The step without torch.optim's profiling wrapper, whose record_function would log
    # profiler handles (a zeros(1) tensor and a _record_function_enter op).
    unwrapped = getattr(type(optimizer).step, "__wrapped__", None)
    unwrapped(optimizer) if unwrapped is not None else optimizer.step()


def run_iteration(workload, optimizer, hooks: Hooks = None, step: Step = None, micro_batches: int = 1):
    step = step if step is not None else Step()
    hooks = hooks if hooks is not None else Hooks()
    torch.manual_seed(0)
    for k in range(micro_batches):
        which = f" of micro-batch {k + 1} of {micro_batches}" if micro_batches > 1 else ""
        if hooks.micro_batch is not None:
            hooks.micro_batch(k)
        step.name = "forward" + which
        output = workload.model(*workload.inputs)
        step.name = "loss" + which
        loss = workload.loss_fn(output, workload.labels)
        del output
        if hooks.backward is not None:
            hooks.backward(k)
        step.name = "backward" + which
        loss.backward()
        del loss
    if hooks.step is not None:
        hooks.step()
    step.name = "optimizer step"
    _optimizer_step(workload, optimizer)
    workload.model.zero_grad(set_to_none=True)


def persistent_tensors(workload, optimizer):
    """What exists before the iteration and outlives it, with its role (tensor_role.h):
    inputs, labels, parameters, buffers, optimizer state; in that order (the log's CONSTANT
    lines)."""
    found = [(t, "input") for t in workload.inputs if isinstance(t, torch.Tensor)]
    if isinstance(workload.labels, torch.Tensor):
        found.append((workload.labels, "input"))
    found += [(p, "parameter") for _, p in workload.model.named_parameters()]
    found += [(b, "other") for _, b in workload.model.named_buffers()]
    if optimizer is not None:
        for p in (p for group in optimizer.param_groups for p in group["params"]):
            for key in sorted(optimizer.state.get(p, {})):
                value = optimizer.state[p][key]
                if isinstance(value, torch.Tensor):
                    found.append((value, "optimizer_state"))
    return found
