"""The CLI's commands as functions: each runs in a child forked from this process
(``_memsim``), writes the same files as the CLI, and returns what the CLI's files hold."""
import html
import json
import math
import os
import re
from typing import Any, Dict, List, Mapping, Optional, Sequence, Union

import _memsim

from ._errors import Error, UsageError, error_from
from ._scenario import ScenarioSource, override_args

PathOrDict = Union[str, "os.PathLike[str]", Mapping[str, Any]]


def _text(b: bytes) -> str:
    return b.decode("utf-8", errors="replace")


def _jobs(jobs: Optional[int]) -> List[str]:
    if jobs is None:
        return []
    if isinstance(jobs, bool) or not isinstance(jobs, int):
        raise UsageError(f"jobs: expected an int (points run at a time), got {jobs!r}")
    return ["--jobs", str(jobs)]


def _opt(flag: str, value: Any, kind: type = str) -> List[str]:
    if value is None:
        return []
    if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
        raise UsageError(f"{flag.lstrip('-').replace('-', '_')}: expected an int, got {value!r}")
    if kind is float:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise UsageError(f"{flag.lstrip('-').replace('-', '_')}: expected a finite number, got {value!r}")
        return [flag, repr(float(value))]
    if kind is str:
        if isinstance(value, os.PathLike):
            value = os.fspath(value)
        if not isinstance(value, str):
            raise UsageError(f"{flag.lstrip('-').replace('-', '_')}: expected a str, got {value!r}")
    return [flag, str(value)]


def _cli(args: List[str], source: Optional[ScenarioSource] = None, workload=()) -> str:
    """Runs ``memsim ARGS`` in a child; its stdout, or the exception for its error."""
    code, out, err, _, _ = _memsim.cli(args)
    out, err = _text(out), _text(err)
    if source is not None:
        out, err = source.tell(out), source.tell(err)
    if code != 0:
        raise error_from(code, out, err, scenario=source.label if source else "", workload=workload)
    return out


def _typed_csv(path: str):
    """A results.csv as a DataFrame: every column whose values are all numbers (empty
    cells aside) is numeric (int64 when whole and complete, else float64); the point
    number and the rest stay strings."""
    import pandas as pd

    frame = pd.read_csv(path, dtype=str, keep_default_na=False)
    for column in frame.columns:
        if column == "point":
            continue
        values = frame[column]
        given = values[values != ""]
        numbers = pd.to_numeric(given, errors="coerce")
        if len(given) == 0 or numbers.isna().any():
            continue
        if len(given) == len(values) and all(re.fullmatch(r"-?\d+", v) for v in given):
            frame[column] = numbers.astype("int64")
        else:
            frame[column] = pd.to_numeric(values.mask(values == "")).astype("float64")
    return frame


class Result:
    """One ``memsim run``: its summary.json, what it printed, and the files it wrote.

    ``summary`` is the dict of summary.json; ``events`` (a DataFrame of events.csv) needs
    ``run(..., events=True)``; ``gantt_html()`` needs ``gantt=True``. In Jupyter the result
    shows its header table and, when written, its Gantt chart."""

    def __init__(self, dir: str, exit_code: int, text: str, stderr: str):
        self.dir = dir
        self.exit_code = exit_code
        self.text = text
        self.stderr = stderr
        with open(os.path.join(dir, "summary.json")) as f:
            self.summary: Dict[str, Any] = json.load(f)

    @property
    def status(self) -> str:
        """The run's status: ok, oom, thrash, ... (the CLI's exit code is 2 unless ok)."""
        return self.summary.get("status", "")

    @property
    def ok(self) -> bool:
        return self.exit_code == 0

    def _file(self, name: str, flag: str) -> str:
        path = os.path.join(self.dir, name)
        if not os.path.exists(path):
            raise Error(f"{path}: this run wrote no {name} (run it with {flag}=True)")
        return path

    @property
    def events(self):
        """events.csv as a pandas DataFrame (read on first use)."""
        if not hasattr(self, "_events"):
            import pandas as pd

            self._events = pd.read_csv(self._file("events.csv", "events"))
        return self._events

    def gantt_html(self) -> str:
        """The run's gantt.html page (a self-contained HTML document)."""
        with open(self._file("gantt.html", "gantt")) as f:
            return f.read()

    def _repr_html_(self) -> str:
        rows = []
        for line in self.text.splitlines():
            if line.startswith("wrote"):
                continue
            name, _, value = line.partition(" ")
            rows.append(f"<tr><th style='text-align:left'>{html.escape(name)}</th>"
                        f"<td style='text-align:left'><code>{html.escape(value.strip())}</code></td></tr>")
        page = f"<table>{''.join(rows)}</table>"
        if os.path.exists(os.path.join(self.dir, "gantt.html")):
            doc = html.escape(self.gantt_html(), quote=True)
            page += f'<iframe srcdoc="{doc}" style="width:100%;height:520px;border:1px solid #ccc"></iframe>'
        return page

    def __repr__(self) -> str:
        s = self.summary
        return (f"<memsim.Result {s.get('scenario', '')}: {self.status}, time {s.get('time_ms')} ms, "
                f"peak {s.get('peak_bytes')} B, in {self.dir}>")


def run(scenario: PathOrDict, overrides: Optional[Mapping[str, Any]] = None, out: Optional[str] = None, *,
        events: bool = False, gantt: bool = False) -> Result:
    """Simulates one scenario, as ``memsim run SCENARIO --set KEY=VALUE... --out OUT``.

    ``scenario``: a path to a scenario YAML, or a dict shaped like the YAML (relative paths
    in it are relative to the current folder). ``overrides``: dotted keys and values,
    exactly like ``--set``. ``out``: the output folder (default: the scenario's
    output.dir, else out/<name>). ``events``/``gantt``: also write events.csv/gantt.html
    (``--set output.events=true``). A run that ends oom or thrash is a Result (status,
    exit_code 2); a scenario memsim refuses raises ScenarioError, WorkloadError, ... with
    the CLI's message."""
    for name, flag in (("events", events), ("gantt", gantt)):
        if not isinstance(flag, bool):
            raise UsageError(f"{name}: expected True or False, got {flag!r}")
    sets = override_args(overrides)
    sets += [f"output.{name}=true" for name, flag in (("events", events), ("gantt", gantt)) if flag]
    out_arg = _opt("--out", out)[1:] or [""]
    with ScenarioSource(scenario) as source:
        code, stdout, stderr, folder, kind = _memsim.run(source.path, sets, out_arg[0], False)
        stdout, stderr = source.tell(_text(stdout)), source.tell(_text(stderr))
        if code not in (0, 2) or not folder:
            raise error_from(code, stdout, stderr, kind, scenario=source.label)
        return Result(folder, code, stdout, stderr)


def _sweep_args(command: str, source: ScenarioSource, overrides, out, jobs) -> List[str]:
    args = [command, source.path]
    for s in override_args(overrides):
        args += ["--set", s]
    return args + _opt("--out", out) + _jobs(jobs)


def _folder(stdout: str) -> str:
    """The sweep folder a command wrote results.csv into (its 'wrote DIR/results.csv' line)."""
    for line in stdout.splitlines():
        m = re.match(r"wrote (.*)/results\.csv$", line.strip())
        if m:
            return m.group(1)
    raise Error(f"memsim wrote no results.csv (it printed: {stdout.strip()[-300:]!r})")


def sweep(scenario: PathOrDict, overrides: Optional[Mapping[str, Any]] = None, out: Optional[str] = None, *,
          jobs: Optional[int] = None, process_per_point: bool = False):
    """Runs a scenario's sweep: section, as ``memsim sweep``; returns results.csv as a
    pandas DataFrame (one row per point; numeric columns typed, ``point`` a string).
    ``df.attrs['dir']`` is the sweep folder, ``df.attrs['text']`` what the CLI printed."""
    with ScenarioSource(scenario) as source:
        args = _sweep_args("sweep", source, overrides, out, jobs)
        if process_per_point:
            args.append("--process-per-point")
        stdout = _cli(args, source)
        folder = _folder(stdout)
        frame = _typed_csv(os.path.join(folder, "results.csv"))
        frame.attrs.update(dir=folder, text=stdout)
        return frame


def compare(scenario: PathOrDict, overrides: Optional[Mapping[str, Any]] = None, out: Optional[str] = None, *,
            policies: Optional[Sequence[str]] = None, jobs: Optional[int] = None):
    """Every policy family at the scenario's budget, as ``memsim compare``; returns the
    runs' results.csv as a DataFrame, ``attrs['text']`` the ranked table the CLI prints."""
    with ScenarioSource(scenario) as source:
        args = _sweep_args("compare", source, overrides, out, jobs)
        if policies is not None:
            if isinstance(policies, str) or not all(isinstance(p, str) for p in policies):
                raise UsageError(f"policies: expected a list of family names, e.g. ['none', 'dtr'], got {policies!r}")
            args += ["--policies", ",".join(policies)]
        stdout = _cli(args, source)
        folder = _folder(stdout)
        frame = _typed_csv(os.path.join(folder, "results.csv"))
        frame.attrs.update(dir=folder, text=stdout)
        return frame


class Found:
    """What ``memsim find`` answered: ``key``, ``value`` (None when no value in the range
    holds), ``answer`` (the CLI's answer line), ``points`` (results.csv as a DataFrame),
    ``dir``, ``text`` (all the CLI printed)."""

    def __init__(self, text: str, points, dir: str):
        self.text, self.points, self.dir = text, points, dir
        self.answer = next((line[len("answer: "):] for line in text.splitlines() if line.startswith("answer: ")), "")
        m = re.match(r"(\S+) = (\S+)", self.answer)
        self.key = m.group(1) if m else None
        self.value: Any = None
        if m:
            try:
                self.value = float(m.group(2))
            except ValueError:
                self.value = m.group(2)

    def __repr__(self) -> str:
        return f"<memsim.Found {self.answer or self.text.strip().splitlines()[-1]}>"


def find(scenario: PathOrDict, *, range: str, vary: Optional[str] = None, maximize: Optional[str] = None,
         minimize: Optional[str] = None, until: Optional[str] = None, while_: Optional[str] = None,
         overrides: Optional[Mapping[str, Any]] = None, out: Optional[str] = None, tolerance: Optional[float] = None,
         grid: Optional[int] = None, jobs: Optional[int] = None) -> Found:
    """The threshold or extreme of one parameter under a condition, as ``memsim find``:
    ``vary=KEY, until=COND`` or ``maximize``/``minimize=KEY, while_=COND``; ``range`` like
    '0.3..1.0' or '10MB/s..10GB/s'."""
    with ScenarioSource(scenario) as source:
        args = _sweep_args("find", source, overrides, out, jobs)
        args += (_opt("--vary", vary) + _opt("--maximize", maximize) + _opt("--minimize", minimize)
                 + _opt("--range", range) + _opt("--until", until) + _opt("--while", while_)
                 + _opt("--tolerance", tolerance, float) + _opt("--grid", grid, int))
        stdout = _cli(args, source)
        folder = _folder(stdout)
        return Found(stdout, _typed_csv(os.path.join(folder, "results.csv")), folder)


def _workload_args(profile, batch, dtr_log) -> List[str]:
    return ([os.fspath(profile)] if profile is not None else []) + _opt("--batch", batch, int) + _opt("--dtr-log", dtr_log)


def info(profile: Optional[str] = None, *, batch: Optional[int] = None, dtr_log: Optional[str] = None,
         forward_end: Optional[int] = None, costs: Optional[str] = None, disk_bandwidth: Optional[str] = None,
         torch_snapshot: Optional[str] = None, torch_alloc_conf: Optional[str] = None) -> Dict[str, Any]:
    """Static facts about a workload, as ``memsim info --json``: the JSON object as a dict."""
    args = (["info"] + _workload_args(profile, batch, dtr_log) + _opt("--forward-end", forward_end, int)
            + _opt("--costs", costs) + _opt("--disk-bandwidth", disk_bandwidth) + _opt("--torch-snapshot", torch_snapshot)
            + _opt("--torch-alloc-conf", torch_alloc_conf) + ["--json"])
    given = [os.fspath(p) for p in (profile, dtr_log, torch_snapshot) if p is not None]
    return json.loads(_cli(args, workload=given))


def plan(profile: Optional[str] = None, *, batch: Optional[int] = None, dtr_log: Optional[str] = None,
         records: Optional[str] = None, strategy: Optional[Union[str, Sequence[str]]] = None,
         offsets: bool = False, align: Optional[int] = None, seed: Optional[int] = None,
         peer_iterations: Optional[int] = None) -> Any:
    """Static memory planners, as ``memsim plan``: on a workload, every strategy's table
    (``--json``) as a dict; with ``records`` (a usage-records JSON file), one plan as a dict."""
    if strategy is not None and not isinstance(strategy, str):
        strategy = ",".join(strategy)
    args = (["plan"] + _workload_args(profile, batch, dtr_log) + _opt("--records", records) + _opt("--strategy", strategy)
            + (["--offsets"] if offsets else []) + _opt("--align", align, int) + _opt("--seed", seed, int)
            + _opt("--peer-iterations", peer_iterations, int))
    if records is None:
        args.append("--json")
    given = [os.fspath(p) for p in (profile, dtr_log, records) if p is not None]
    return json.loads(_cli(args, workload=given))
