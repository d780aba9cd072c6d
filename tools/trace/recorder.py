"""Records one training iteration as DTR log lines (docs/tracing.md, "What a log holds").

A TorchDispatchMode sees every aten operator of the forward pass, the loss, the backward
pass (on CPU the autograd engine runs it on the calling thread) and the optimizer step.
Memory is tracked per storage, not per tensor: the recorder holds one reference to each
storage it has seen (a torch.UntypedStorage) and reads the storage's reference count
before every operator; a count of 1 means only the recorder still holds it, so every
Python tensor, view and autograd saved tensor sharing it is gone, and all its names are
RELEASEd there.

Besides the published format's keys, each line carries the optional keys memsim reads
(models/workload/dtr_log.h; the published simulator ignores them): ROLE and ROLES (what
each tensor is to the step), FLOPS, BYTES and DTYPE (tools/trace/op_costs.py), RECOMPUTES
(an operator torch.utils.checkpoint re-runs in the backward: the index of the forward
operator it repeats) and ANNOTATE MICRO_BATCH.
"""
import ctypes
import operator
import time
import weakref
from typing import Dict, List, Optional

import torch
from torch.utils._pytree import tree_flatten
from torch.utils._python_dispatch import TorchDispatchMode

from tools.trace.op_costs import op_costs

# c10::StorageImpl derives from c10::intrusive_ptr_target: a vtable pointer, then the
# atomic strong reference count.
_REFCOUNT_OFFSET = 8


def _refcount_cell(cdata: int) -> ctypes.c_size_t:
    """A view of the storage's strong reference count, read again on every access."""
    return ctypes.c_size_t.from_address(cdata + _REFCOUNT_OFFSET)


_read_count = operator.attrgetter("refcount.value")


def _untyped_storage(t: torch.Tensor):
    return t.storage()._storage


class _Storage:
    __slots__ = ("anchor", "refcount", "nbytes", "names", "constant", "results", "role")

    def __init__(self, anchor, constant: bool):
        self.anchor = anchor
        self.refcount = _refcount_cell(anchor._cdata)
        self.nbytes = anchor.nbytes()
        self.names: List[str] = []
        self.constant = constant
        self.results: List[tuple] = []  # (CALL line, result index) of each name a CALL gave it
        self.role = "other"


# Operators that write arguments their schema does not mark as written: batch norm in
# training mode updates running_mean and running_var (arguments 3 and 4) in place.
_BATCH_NORMS = {"native_batch_norm", "cudnn_batch_norm", "miopen_batch_norm", "_batch_norm_impl_index"}


def _written_arguments(func, args, kwargs) -> List[torch.Tensor]:
    written = []
    schema = func._schema
    for i, a in enumerate(schema.arguments):
        if a.alias_info is None or not a.alias_info.is_write:
            continue
        value = args[i] if i < len(args) else kwargs.get(a.name)
        values = value if isinstance(value, (list, tuple)) else [value]
        written.extend(v for v in values if isinstance(v, torch.Tensor))
    if func.overloadpacket.__name__ in _BATCH_NORMS and len(args) > 5 and args[5] is True:
        written.extend(v for v in args[3:5] if isinstance(v, torch.Tensor))
    return written


class Recorder(TorchDispatchMode):
    """Emits log lines (dicts) for everything dispatched while active.

    Operator lines carry "TIME" as the operator's index into `op_times`; the writer
    replaces it with the median time over the timing passes.
    """

    def __init__(self, synchronize=None, on_operator=None):
        super().__init__()
        self.lines: List[dict] = []
        self.op_names: List[str] = []
        self.op_times: List[int] = []
        self._synchronize = synchronize
        self._on_operator = on_operator  # called with the operator count after each one
        self._next_name = 0
        self._names: Dict[int, tuple] = {}  # id(tensor) -> (weakref, name)
        self._storages: Dict[int, _Storage] = {}  # StorageImpl address -> storage
        self._storage_of_name: Dict[str, _Storage] = {}
        self.live_bytes = 0
        self.peak_bytes = 0  # the log's semantics (a MUTATE holds both versions during the op)
        self.constant_count = 0
        self.constant_bytes = 0
        self.mutate_count = 0
        self.backward_at: Optional[int] = None
        self.phase = "forward"  # then "backward", then "step": the role of what an op makes
        # torch.utils.checkpoint regions (tools/trace/checkpointing.py): per region, the
        # forward's op indices; the region being re-run and how many of its ops so far.
        self.regions: Dict[int, List[int]] = {}
        self._region: Optional[tuple] = None
        self.recomputed_count = 0

    # ---- names and storages -------------------------------------------------------
    def _fresh_name(self) -> str:
        name = f"x{self._next_name}"
        self._next_name += 1
        return name

    def _bind(self, t: torch.Tensor, name: str, storage: _Storage):
        self._names[id(t)] = (weakref.ref(t), name)
        storage.names.append(name)
        self._storage_of_name[name] = storage

    def name_of(self, t: torch.Tensor) -> Optional[str]:
        entry = self._names.get(id(t))
        if entry is not None and entry[0]() is t:
            return entry[1]
        return None

    def _storage(self, t: torch.Tensor) -> Optional[_Storage]:
        return self._storages.get(_untyped_storage(t)._cdata)

    def _new_storage(self, t: torch.Tensor, constant: bool) -> _Storage:
        anchor = _untyped_storage(t)
        storage = _Storage(anchor, constant)
        self._storages[anchor._cdata] = storage
        self.live_bytes += storage.nbytes
        return storage

    def declare_constant(self, t: torch.Tensor, role: str = "other") -> str:
        """CONSTANT + MEMORY for a tensor the iteration did not create (a COPY when its
        storage is already known); `role` goes into its ROLE key."""
        known = self.name_of(t)
        if known is not None:
            return known
        storage = self._storage(t)
        name = self._fresh_name()
        if storage is not None:
            self.lines.append({"INSTRUCTION": "COPY", "DST": name, "SRC": storage.names[-1]})
        else:
            storage = self._new_storage(t, constant=True)
            storage.role = role
            self.lines.append({"INSTRUCTION": "CONSTANT", "NAME": name, "ROLE": role})
            self.lines.append({"INSTRUCTION": "MEMORY", "NAME": name, "MEMORY": str(storage.nbytes)})
            self.constant_count += 1
            self.constant_bytes += storage.nbytes
            self.peak_bytes = max(self.peak_bytes, self.live_bytes)
        self._bind(t, name, storage)
        return name

    def _argument_name(self, t: torch.Tensor) -> str:
        """The name of an operator argument; a tensor first seen here is either a new
        view of a known storage (an autograd saved tensor unpacked, a view made below
        the dispatcher: COPY of the storage's newest name) or a constant."""
        return self.declare_constant(t)

    def release_dead(self):
        """RELEASE every name of each storage only the recorder still holds."""
        # Every storage's count before every operator: by map(), not a Python loop, since
        # the parameters alone are hundreds of storages and a model thousands of operators.
        if 1 not in map(_read_count, self._storages.values()):
            return
        dead = [key for key, s in self._storages.items() if s.refcount.value == 1]
        for key in dead:
            storage = self._storages.pop(key)
            for name in storage.names:
                self.lines.append({"INSTRUCTION": "RELEASE", "NAME": name})
                del self._storage_of_name[name]
            self.live_bytes -= storage.nbytes
            storage.anchor = storage.refcount = None  # the count's memory goes with the storage

    def annotate(self, annotation: str):
        self.lines.append({"INSTRUCTION": "ANNOTATE", "ANNOTATION": annotation})
        if annotation == "BACKWARD":
            self.phase = "backward"
            if self.backward_at is None:
                self.backward_at = len(self.op_names)
        elif annotation == "MICRO_BATCH":
            self.phase = "forward"

    def start_step(self):
        """The optimizer step begins: what the step makes is 'other'."""
        self.phase = "step"

    def mark_gradients(self, tensors):
        """ROLES 'gradient' for every name a CALL gave to these tensors' storages (called
        after the backward, when the parameters' .grad are known)."""
        for t in tensors:
            storage = self._storage(t)
            if storage is None or storage.constant:
                continue
            storage.role = "gradient"
            for call, k in storage.results:
                call["ROLES"][k] = "gradient"

    # ---- torch.utils.checkpoint ---------------------------------------------------
    def enter_region(self, region: int, first: bool):
        """Ops from here run inside checkpoint region `region`: its forward (first) or its
        re-run in the backward. Returns what exit_region() restores."""
        saved = self._region
        if first:
            self.regions[region] = []
        self._region = (region, first, [0])
        return saved

    def exit_region(self, saved):
        self._region = saved

    def _recomputes(self, op: str, index: int) -> Optional[int]:
        """The forward op index this op re-runs, inside a region's re-run; None otherwise."""
        if self._region is None:
            return None
        region, first, position = self._region
        if first:
            self.regions[region].append(index)
            return None
        # The re-run repeats the forward's ops in order, with a few of its own (detach of
        # the saved inputs): an op re-runs the next forward op of its name.
        forward = self.regions.get(region, [])
        for k in range(position[0], len(forward)):
            if self.op_names[forward[k]] == op:
                position[0] = k + 1
                self.recomputed_count += 1
                return forward[k]
        return None

    # ---- operators ----------------------------------------------------------------
    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        self.release_dead()
        inputs = [t for t in tree_flatten((args, kwargs))[0] if isinstance(t, torch.Tensor)]
        arg_names = [self._argument_name(t) for t in inputs]
        if self._synchronize:
            self._synchronize()
        start = time.perf_counter_ns()
        out = func(*args, **kwargs)
        if self._synchronize:
            self._synchronize()
        elapsed = time.perf_counter_ns() - start
        outputs = [t for t in tree_flatten(out)[0] if isinstance(t, torch.Tensor)]
        written = _written_arguments(func, args, kwargs)
        self._record(func.overloadpacket.__name__, inputs, arg_names, outputs, written, args)
        self.op_times.append(elapsed)
        if self._on_operator:
            self._on_operator(len(self.op_times))
        return out

    def _input_index(self, inputs, t: torch.Tensor) -> Optional[int]:
        for i, a in enumerate(inputs):
            if a is t:
                return i
        return None

    def _costs(self, line: dict, op: str, args, inputs, outputs, written, view: bool):
        flops, moved, dtype = op_costs(op, args, inputs, list(outputs) + [w for w in written if all(w is not o for o in outputs)],
                                       view)
        line.update({"FLOPS": str(flops), "BYTES": str(moved), "DTYPE": dtype})

    def _record(self, op: str, inputs, arg_names, outputs, written, args=()):
        index = len(self.op_names)
        self.op_names.append(op)
        recomputes = self._recomputes(op, index)
        written_ids = {id(w) for w in written}
        # An in-place operator on a tensor that alone names its non-constant storage is a
        # MUTATE (the published format's in-place operator: a new version of the same
        # size, the old one released). Writes to constants (parameters, buffers,
        # optimizer state) or to a storage other names share are a CALL that allocates
        # nothing, as in place really is; the written tensor keeps its name.
        mutable = all(
            not self._storage_of_name[self.name_of(w)].constant
            and len(self._storage_of_name[self.name_of(w)].names) == 1
            for w in written if self.name_of(w) is not None)
        if written and mutable and all(id(o) in written_ids for o in outputs) and \
                all(self.name_of(w) is not None for w in written):
            mutated = sorted({self._input_index(inputs, w) for w in written})
            line = {"INSTRUCTION": "MUTATE", "NAME": op, "ARGS": arg_names, "MUTATE": mutated, "TIME": index}
            self._costs(line, op, args, inputs, outputs, written, view=False)
            if recomputes is not None:
                line["RECOMPUTES"] = str(recomputes)
            self.lines.append(line)
            self.mutate_count += 1
            extra = sum(self._storage_of_name[arg_names[k]].nbytes for k in mutated)
            self.peak_bytes = max(self.peak_bytes, self.live_bytes + extra)
            return
        results = list(outputs) + [w for w in written if all(w is not o for o in outputs)]
        call = {"INSTRUCTION": "CALL", "NAME": op, "ARGS": arg_names, "RESULT": [], "ROLES": [], "TIME": index}
        if recomputes is not None:
            call["RECOMPUTES"] = str(recomputes)
        self.lines.append(call)
        # The forward's results, and their re-runs by torch.utils.checkpoint, are activations.
        made = "activation" if self.phase == "forward" or recomputes is not None else "other"
        view = not written and bool(outputs) and all(
            self._storage(o) is not None and any(self._storage(a) is self._storage(o) for a in inputs) for o in outputs)
        self._costs(call, op, args, inputs, outputs, written, view)
        for t in results:
            storage = self._storage(t)
            alias = -1
            if storage is not None:
                alias = next((i for i, a in enumerate(inputs) if self._storage(a) is storage), -1)
                if alias >= 0 and any(self._storage(a) is not storage for a in inputs):
                    # A result on an argument's storage from an operator that reads other
                    # storages too (an in-place write to a parameter, to optimizer state or
                    # to batch norm's running statistics): the argument already names it, so
                    # it is not a result. As a result it would give an existing storage a
                    # computed parent, which the published DTR runtime cannot track
                    # (docs/tracing.md, "Runs under the published simulator").
                    if self.name_of(t) is None:
                        self._names[id(t)] = (weakref.ref(t), arg_names[alias])
                    continue
            name = self._fresh_name()
            call["RESULT"].append(name)
            if storage is None:
                storage = self._new_storage(t, constant=False)
                storage.role = made
                memory = storage.nbytes
            else:
                memory = 0  # a view: what its storage is (a parameter's .t() is a parameter)
            storage.results.append((call, len(call["ROLES"])))
            call["ROLES"].append(storage.role)
            self.lines.append({"INSTRUCTION": "MEMORY", "NAME": name, "MEMORY": str(memory)})
            self.lines.append({"INSTRUCTION": "ALIAS", "NAME": name, "ALIAS": str(alias)})
            self._bind(t, name, storage)
        if not call["RESULT"]:
            # Every CALL has a result (the published parser unpacks them): a 0-byte one,
            # released at once, as the published logs write cudnn_batch_norm's empty
            # reserve buffer.
            name = self._fresh_name()
            call["RESULT"].append(name)
            call["ROLES"].append("other")
            self.lines.append({"INSTRUCTION": "MEMORY", "NAME": name, "MEMORY": "0"})
            self.lines.append({"INSTRUCTION": "ALIAS", "NAME": name, "ALIAS": "-1"})
            self.lines.append({"INSTRUCTION": "RELEASE", "NAME": name})
        self.peak_bytes = max(self.peak_bytes, self.live_bytes)


class OpTimer(TorchDispatchMode):
    """A timing pass: operator names and times only, nothing else recorded."""

    def __init__(self, synchronize=None, on_operator=None):
        super().__init__()
        self.op_names: List[str] = []
        self.op_times: List[int] = []
        self._synchronize = synchronize
        self._on_operator = on_operator

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        if self._synchronize:
            self._synchronize()
        start = time.perf_counter_ns()
        out = func(*args, **kwargs)
        if self._synchronize:
            self._synchronize()
        self.op_times.append(time.perf_counter_ns() - start)
        self.op_names.append(func.overloadpacket.__name__)
        if self._on_operator:
            self._on_operator(len(self.op_times))
        return out
