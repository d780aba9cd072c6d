"""A scenario given from Python: a path, or a dict shaped like the YAML; overrides as a dict
of dotted keys, exactly like ``--set``. Python values memsim cannot take are refused here
with the key that holds them; everything else goes to memsim's own checks."""
import json
import math
import os
import tempfile
from typing import Any, List, Mapping, Optional

from ._errors import ScenarioError, UsageError

_SCALARS = (str, bool, int, float)


def _check_value(value: Any, where: str) -> Any:
    """The value as JSON-able data, or ScenarioError naming where it is and why."""
    if hasattr(value, "__memsim_workload__"):  # a traced Workload as scenario['workload']
        return value.__memsim_workload__()
    if value is None or isinstance(value, (str, bool, int)):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ScenarioError(f"{where}: {value} is not a value memsim takes (a finite number)")
        return value
    if hasattr(value, "item") and hasattr(value, "dtype"):  # numpy scalars from pandas
        return _check_value(value.item(), where)
    if isinstance(value, os.PathLike):
        return os.fspath(value)
    if isinstance(value, Mapping):
        out = {}
        for k, v in value.items():
            if not isinstance(k, str):
                raise ScenarioError(f"{where}: the key {k!r} is a {type(k).__name__}; scenario keys are strings")
            out[k] = _check_value(v, f"{where}.{k}" if where else k)
        return out
    if isinstance(value, (list, tuple)):
        return [_check_value(v, f"{where}[{i}]") for i, v in enumerate(value)]
    raise ScenarioError(f"{where}: a {type(value).__name__} is not a scenario value "
                        "(give a str, int, float, bool, None, or a list or dict of them)")


def override_args(overrides: Optional[Mapping[str, Any]]) -> List[str]:
    """``--set`` arguments (KEY=VALUE) for a dict of dotted keys."""
    if overrides is None:
        return []
    if not isinstance(overrides, Mapping):
        raise UsageError(f"overrides: expected a dict of dotted keys, e.g. {{'workload.batch': 8}}, "
                         f"got a {type(overrides).__name__}")
    sets = []
    for key, value in overrides.items():
        if not isinstance(key, str):
            raise ScenarioError(f"overrides: the key {key!r} is a {type(key).__name__}; keys are dotted strings "
                                "like 'workload.batch'")
        value = _check_value(value, f"overrides[{key!r}]")
        if isinstance(value, bool):
            text = "true" if value else "false"
        elif value is None:
            text = "null"
        elif isinstance(value, (int, float, str)):
            text = str(value) if not isinstance(value, float) else repr(value)
        else:  # lists and dicts in YAML's flow style (JSON is YAML)
            text = json.dumps(value)
        sets.append(f"{key}={text}")
    return sets


class ScenarioSource:
    """A scenario path for the CLI: the path given, or a dict written to a temporary file.
    memsim looks for a relative path in the working directory first (then beside the
    scenario file, then in its source folder), so a dict's paths mean what they would in
    a file in the current folder."""

    def __init__(self, scenario: Any):
        self._tmp = None
        if isinstance(scenario, (str, os.PathLike)):
            self.path = os.fspath(scenario)
            self.label = self.path
            return
        if not isinstance(scenario, Mapping):
            raise UsageError(f"scenario: expected a path or a dict shaped like the scenario YAML, "
                             f"got a {type(scenario).__name__}")
        try:
            tree = _check_value(scenario, "")
        except ScenarioError as e:
            raise ScenarioError(f"scenario (dict): {e}") from None
        self._tmp = tempfile.TemporaryDirectory(prefix="memsim-scenario-")
        self.path = os.path.join(self._tmp.name, "scenario.yaml")
        self.label = "scenario (dict)"
        with open(self.path, "w") as f:
            json.dump(tree, f, indent=1)  # JSON is YAML

    def tell(self, text: str) -> str:
        """``text`` with the temporary file's path as the user knows it."""
        if self._tmp is None:
            return text
        return text.replace(self.path, self.label).replace(self._tmp.name, "(a dict has no folder)")

    def close(self):
        if self._tmp is not None:
            self._tmp.cleanup()
            self._tmp = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
