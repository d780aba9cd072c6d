# Type hints of the memsim package (docs/python.md).
import os
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Union

import pandas

PathOrDict = Union[str, os.PathLike[str], Mapping[str, Any]]

class Error(Exception):
    message: str
    exit_code: int
    stdout: str
    stderr: str
    def __init__(self, message: str, exit_code: int = ..., stdout: str = ..., stderr: str = ...) -> None: ...

class ScenarioError(Error, ValueError): ...
class WorkloadError(Error, ValueError): ...
class OutputError(Error, OSError): ...
class UsageError(Error, TypeError): ...
class TraceError(Error): ...

class Result:
    dir: str
    exit_code: int
    text: str
    stderr: str
    summary: Dict[str, Any]
    @property
    def status(self) -> str: ...
    @property
    def ok(self) -> bool: ...
    @property
    def events(self) -> pandas.DataFrame: ...
    def gantt_html(self) -> str: ...
    def _repr_html_(self) -> str: ...

class Found:
    text: str
    points: pandas.DataFrame
    dir: str
    answer: str
    key: Optional[str]
    value: Union[float, str, None]

class Workload:
    path: str
    meta: Dict[str, Any]
    @property
    def ops(self) -> int: ...
    def save(self, path: Union[str, os.PathLike[str]]) -> Workload: ...
    def __memsim_workload__(self) -> Dict[str, str]: ...

def run(scenario: PathOrDict, overrides: Optional[Mapping[str, Any]] = ..., out: Optional[str] = ..., *,
        events: bool = ..., gantt: bool = ...) -> Result: ...
def sweep(scenario: PathOrDict, overrides: Optional[Mapping[str, Any]] = ..., out: Optional[str] = ..., *,
          jobs: Optional[int] = ..., process_per_point: bool = ...) -> pandas.DataFrame: ...
def compare(scenario: PathOrDict, overrides: Optional[Mapping[str, Any]] = ..., out: Optional[str] = ..., *,
            policies: Optional[Sequence[str]] = ..., jobs: Optional[int] = ...) -> pandas.DataFrame: ...
def find(scenario: PathOrDict, *, range: str, vary: Optional[str] = ..., maximize: Optional[str] = ...,
         minimize: Optional[str] = ..., until: Optional[str] = ..., while_: Optional[str] = ...,
         overrides: Optional[Mapping[str, Any]] = ..., out: Optional[str] = ..., tolerance: Optional[float] = ...,
         grid: Optional[int] = ..., jobs: Optional[int] = ...) -> Found: ...
def info(profile: Optional[str] = ..., *, batch: Optional[int] = ..., dtr_log: Optional[str] = ...,
         forward_end: Optional[int] = ..., costs: Optional[str] = ..., disk_bandwidth: Optional[str] = ...,
         torch_snapshot: Optional[str] = ..., torch_alloc_conf: Optional[str] = ...) -> Dict[str, Any]: ...
def plan(profile: Optional[str] = ..., *, batch: Optional[int] = ..., dtr_log: Optional[str] = ...,
         records: Optional[str] = ..., strategy: Union[str, Sequence[str], None] = ..., offsets: bool = ...,
         align: Optional[int] = ..., seed: Optional[int] = ..., peer_iterations: Optional[int] = ...) -> Any: ...
def trace(model: Any, inputs: Any, labels: Any, loss_fn: Callable[..., Any], optimizer: Any = ...,
          micro_batches: int = ..., *, step: Optional[Callable[[], Any]] = ..., out: Optional[str] = ...,
          repeat: int = ..., name: Optional[str] = ..., quiet: bool = ...) -> Workload: ...
