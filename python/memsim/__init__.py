"""memsim from Python: the simulator's commands in-process, results as dicts and pandas
DataFrames, traces of a live torch.nn.Module (docs/python.md).

    import memsim
    r = memsim.run("scenarios/example.yaml")
    r.summary["peak_bytes"]

Each simulation runs in a child forked from this process (SimGrid allows one engine per
process): no program start-up, and a workload loaded once stays loaded for the next run.
Errors are exceptions carrying the CLI's messages word for word: ScenarioError,
WorkloadError, OutputError, UsageError (a Python value memsim cannot take), TraceError;
all are memsim.Error.
"""
from ._api import Found, Result, compare, find, info, plan, run, sweep
from ._errors import Error, OutputError, ScenarioError, TraceError, UsageError, WorkloadError
from ._trace import Workload, trace

__all__ = ["run", "sweep", "compare", "find", "info", "plan", "trace", "Result", "Found", "Workload", "Error",
           "ScenarioError", "WorkloadError", "OutputError", "UsageError", "TraceError"]
