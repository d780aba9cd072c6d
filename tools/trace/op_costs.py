"""What the device model needs of each operator (docs/gpu_model.md; the log's FLOPS,
BYTES and DTYPE keys), from the shapes the tracer sees:

- FLOPS: matrix products (mm, addmm, bmm, baddbmm, addbmm, mv, addmv, dot, and so the
  attention's Q·K^T and softmax·V, which reach the dispatcher as bmm) and convolutions
  count 2 x multiply-adds (a bias or beta term folded in, as the kernels do); every other
  computing operator (element-wise, reductions, softmax, normalizations, losses) counts
  one operation per element of its largest tensor argument or result; views, copies,
  allocations and gathers count none.
- BYTES: the bytes of every tensor argument plus every result (a view's elements, not its
  whole storage); views and allocations move none.
- DTYPE: PyTorch's name of the first floating-point result or argument (else of the
  first tensor).
"""
import math
from typing import List, Sequence, Tuple

import torch

# Operators that compute nothing: aliases, copies, allocations, gathers and scatters of
# whole elements. Their FLOPS are 0; those that only allocate or alias move no bytes.
_NO_FLOPS = {
    "_to_copy", "clone", "copy_", "contiguous", "embedding", "embedding_dense_backward", "index", "index_select",
    "gather", "scatter", "cat", "stack", "constant_pad_nd", "repeat", "new_zeros", "zeros", "zeros_like", "ones",
    "ones_like", "fill_", "zero_", "full", "full_like", "new_full", "new_ones", "arange", "lift_fresh",
    "_local_scalar_dense", "scalar_tensor", "_unsafe_view", "masked_fill_", "masked_fill", "slice_backward",
    "select_backward", "where",
}
_NO_BYTES = {"empty", "empty_like", "empty_strided", "new_empty", "new_empty_strided", "lift_fresh",
             "_local_scalar_dense", "scalar_tensor"}


def _numel(t: torch.Tensor) -> int:
    return t.numel()


def _matmul_flops(op: str, args: Sequence) -> int:
    """2 x multiply-adds of a matrix product; -1 when `op` is not one."""
    tensors = [a for a in args if isinstance(a, torch.Tensor)]
    if op == "mm" and len(tensors) >= 2:
        (m, k), n = tensors[0].shape, tensors[1].shape[1]
        return 2 * m * k * n
    if op == "addmm" and len(tensors) >= 3:  # addmm(bias, a, b)
        (m, k), n = tensors[1].shape, tensors[2].shape[1]
        return 2 * m * k * n
    if op == "bmm" and len(tensors) >= 2:
        (b, m, k), n = tensors[0].shape, tensors[1].shape[2]
        return 2 * b * m * k * n
    if op in ("baddbmm", "addbmm") and len(tensors) >= 3:
        (b, m, k), n = tensors[1].shape, tensors[2].shape[2]
        return 2 * b * m * k * n
    if op == "mv" and len(tensors) >= 2:
        m, k = tensors[0].shape
        return 2 * m * k
    if op == "addmv" and len(tensors) >= 3:
        m, k = tensors[1].shape
        return 2 * m * k
    if op == "dot" and len(tensors) >= 2:
        return 2 * _numel(tensors[0])
    return -1


def _convolution_flops(op: str, args: Sequence, outputs: Sequence[torch.Tensor]) -> int:
    """2 x multiply-adds of a convolution (forward: its output; backward: each gradient
    asked for, input and weight, costs the forward's); -1 when `op` is not one."""
    if op in ("convolution", "_convolution", "mkldnn_convolution", "cudnn_convolution", "conv2d", "conv1d", "conv3d"):
        weight, out = args[1], outputs[0]
        # weight: [C_out, C_in / groups, *kernel]: each output element is that many multiply-adds.
        return 2 * _numel(out) * weight.shape[1] * math.prod(weight.shape[2:])
    if op == "convolution_backward":
        grad_output, weight = args[0], args[2]
        mask = args[10] if len(args) > 10 else (True, True, True)
        forward = 2 * _numel(grad_output) * weight.shape[1] * math.prod(weight.shape[2:])
        return forward * (int(bool(mask[0])) + int(bool(mask[1]))) + (_numel(grad_output) if mask[2] else 0)
    return -1


def _dtype_name(tensors: Sequence[torch.Tensor]) -> str:
    floating = [t for t in tensors if t.is_floating_point()]
    chosen = floating[0] if floating else tensors[0]
    return str(chosen.dtype).replace("torch.", "")


def op_costs(op: str, args: Sequence, inputs: List[torch.Tensor], outputs: List[torch.Tensor],
             view: bool) -> Tuple[int, int, str]:
    """(FLOPS, BYTES, DTYPE) of one operator: `args` its positional arguments as called,
    `inputs` its tensor arguments, `outputs` its tensor results (and tensors it wrote),
    `view` true when every result aliases an argument and nothing is written."""
    tensors = list(outputs) + list(inputs)
    dtype = _dtype_name(tensors) if tensors else "float32"
    if view or op in _NO_BYTES:
        return 0, 0, dtype
    moved = sum(_numel(t) * t.element_size() for t in tensors)
    flops = _matmul_flops(op, args)
    if flops < 0:
        flops = _convolution_flops(op, args, outputs)
    if flops < 0:
        flops = 0 if op in _NO_FLOPS else max((_numel(t) for t in tensors), default=0)
    return flops, moved, dtype
