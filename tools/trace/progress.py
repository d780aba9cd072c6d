"""What the tracer says while it works (docs/tracing.md, "Progress and times"): one line
when a pass starts (pass k of n), then at most one line every `interval_s` seconds with
the operators seen so far, on stderr; durations in µs, ms, s or min, sizes in B, KiB,
MiB or GiB."""
import sys
import time


def duration(ns: float) -> str:
    """850 µs, 12.3 ms, 40.8 s, 6 min 12 s."""
    if ns < 1e6:
        return f"{ns / 1e3:.0f} µs"
    if ns < 1e9:
        return f"{ns / 1e6:.1f} ms"
    seconds = ns / 1e9
    if seconds < 120:
        return f"{seconds:.1f} s"
    minutes, rest = divmod(round(seconds), 60)
    return f"{minutes} min {rest} s"


def size(nbytes: int) -> str:
    """576 B, 1.0 KiB, 97.7 MiB, 1.23 GiB."""
    if nbytes < 1024:
        return f"{nbytes} B"
    for unit, scale in (("KiB", 1024), ("MiB", 1024 ** 2)):
        if nbytes < 1024 * scale:
            return f"{nbytes / scale:.1f} {unit}"
    return f"{nbytes / 1024 ** 3:.2f} GiB"


class Progress:
    """Pass k of n and operators so far; `stream=None` says nothing."""

    def __init__(self, passes: int, stream=sys.stderr, interval_s: float = 10.0):
        self.passes = passes
        self.stream = stream
        self.interval_s = interval_s
        self.current = 0
        self.what = "starting"
        self._total_ops = None
        self._next_report = 0.0

    def _say(self, text: str):
        if self.stream is not None:
            print(f"memsim trace: {text}", file=self.stream, flush=True)

    def start(self, what: str, total_ops=None):
        """A new pass; with total_ops, later lines say k of total."""
        self.current += 1
        self.what = what
        self._total_ops = total_ops
        self._next_report = time.monotonic() + self.interval_s
        self._say(f"pass {self.current} of {self.passes}: {what}")

    def note(self, text: str):
        self._say(f"  {text}")

    def operator_done(self, count: int):
        """Called after every operator of a recorded or timed pass: cheap unless a line is due."""
        if self.stream is None or time.monotonic() < self._next_report:
            return
        self._next_report = time.monotonic() + self.interval_s
        of = f" of {self._total_ops}" if self._total_ops else ""
        self._say(f"  pass {self.current} of {self.passes} ({self.what}): {count}{of} operators so far")
