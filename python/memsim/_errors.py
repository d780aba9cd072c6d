"""memsim's exceptions: what the CLI reports as ``memsim: error: ...`` (exit 1), raised with
the same message word for word."""


class Error(Exception):
    """memsim refused or failed: ``str(e)`` is the CLI's message after ``memsim: error: ``.

    ``exit_code`` is the exit code the CLI gives (1, or 128 + a signal), ``stderr`` all the
    CLI printed on stderr, ``stdout`` all it printed on stdout."""

    def __init__(self, message: str, exit_code: int = 1, stdout: str = "", stderr: str = ""):
        super().__init__(message)
        self.message = message
        self.exit_code = exit_code
        self.stdout = stdout
        self.stderr = stderr


class ScenarioError(Error, ValueError):
    """The scenario (its file, its dict, an override) is not one memsim accepts."""


class WorkloadError(Error, ValueError):
    """The workload the scenario names (a profile folder, a DTR log, a snapshot) cannot be read."""


class OutputError(Error, OSError):
    """An output file or folder cannot be written."""


class UsageError(Error, TypeError):
    """A Python argument memsim cannot take (a wrong type, NaN, an unknown option)."""


class TraceError(Error):
    """Tracing a live model failed (the model, its loss or its optimizer raised, or gave no gradients)."""


_PREFIX = "memsim: error: "


def error_from(code: int, stdout: str, stderr: str, kind: str = "", scenario: str = "", workload=()) -> Error:
    """The exception for a command that ended with ``code`` and printed ``stderr``.

    ``kind`` says which input the error is about when the caller knows it; otherwise the
    message tells: the CLI's messages start with the file they are about."""
    lines = [line for line in stderr.splitlines() if line.strip()]
    errors = [line for line in lines if _PREFIX in line]
    if errors:
        message = errors[-1].split(_PREFIX, 1)[1]
    elif lines:
        message = lines[-1]
    else:
        message = f"memsim ended with exit status {code} without a message"
    if not kind:
        if message.startswith("--set") or (scenario and message.startswith(scenario)):
            kind = "scenario"
        elif any(w and message.startswith(w) for w in workload):
            kind = "workload"
    cls = {"scenario": ScenarioError, "workload": WorkloadError, "output": OutputError}.get(kind, Error)
    return cls(message, code, stdout, stderr)
