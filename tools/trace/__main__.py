"""python3 -m tools.trace MODEL --out FILE [--batch N] [--input-shape C,H,W] ...

Every way this process ends is one of: the log and its sidecar written (exit 0), or one
line on stderr saying why not and nothing written (exit 1, or 128 + the signal's number
after SIGINT, SIGTERM or SIGHUP). Run by `memsim trace`, it also reports "ok" or "error"
on the file descriptor --report-fd names, so that memsim can tell a finished trace from
a process that model code ended with os._exit().
"""
import argparse
import os
import signal
import sys

# Nothing here imports torch before the signal handlers and the --timeout are in place
# (importing it takes seconds).
from tools.trace.models import OPTIMIZERS, TraceError, describe_exception, error_text, factory_path
from tools.trace.progress import Progress

# The default --timeout: generous (the largest model of docs/tracing.md traced in 32
# minutes on a loaded 2-core machine).
DEFAULT_TIMEOUT_S = 3 * 3600


class Stopped(BaseException):
    """A signal or the --timeout: not an Exception, so model code cannot swallow it."""

    def __init__(self, message: str, status: int):
        super().__init__(message)
        self.status = status


def _shape(text: str):
    try:
        dims = tuple(int(x) for x in text.replace("x", ",").split(",") if x.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"--input-shape must be integers like 3,224,224, got '{text}'")
    if not dims or any(d < 1 for d in dims):
        raise argparse.ArgumentTypeError(f"--input-shape must be positive integers like 3,224,224, got '{text}'")
    return dims


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--timeout must be a number of seconds, got '{text}'")
    if not 0 <= value <= 1e7:
        raise argparse.ArgumentTypeError(f"--timeout must be between 0 (no limit) and 1e7 seconds, got '{text}'")
    return value


def _die_with_parent():
    """Under memsim: end when memsim ends, even by SIGKILL (Linux PR_SET_PDEATHSIG)."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # 1 = PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


# The first stop raised: C++ code the exception passes through (torch's import, an
# operator calling back into Python) may turn it into another exception, so the handlers
# of main() look here first.
_stop = None


def _install_stops(timeout_s: float, progress):
    def where():
        if progress.current == 0:
            return "start-up (importing torch)"
        return f"pass {progress.current} of {progress.passes} ({progress.what})"

    def stop(message: str, status: int):
        global _stop
        _stop = _stop or Stopped(message, status)
        raise _stop

    def on_signal(signum, _frame):
        stop(f"interrupted by {signal.Signals(signum).name} during {where()}; no log was written", 128 + signum)

    def on_alarm(_signum, _frame):
        stop(f"did not finish within --timeout {timeout_s:g} s (during {where()}); stopped, no log was written "
             "(a larger model needs a larger --timeout; 0 means no limit)", 1)

    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, on_signal)
    if timeout_s > 0:
        signal.signal(signal.SIGALRM, on_alarm)
        signal.setitimer(signal.ITIMER_REAL, timeout_s)


def _report(fd, word: str):
    if fd is None:
        return
    try:
        os.write(fd, word.encode() + b"\n")
    except OSError:
        pass


def _torch_imports(report_fd) -> bool:
    """Imports torch (seconds). Without it, under memsim the report says so and memsim tries
    its next interpreter (one import per trace, not a probe and then the tracer's own);
    run directly, one line says why."""
    try:
        import torch  # noqa: F401
    except ImportError as e:
        if report_fd is not None:
            _report(report_fd, "no-torch")
        else:
            print(f"memsim trace: error: {sys.executable} cannot import torch ({e}); scripts/setup.sh installs "
                  "Debian's python3-torch and python3-torchvision for /usr/bin/python3", file=sys.stderr)
        return False
    return True


def _report_fd_in(argv):
    try:
        return int(argv[argv.index("--report-fd") + 1])
    except (ValueError, IndexError):
        return None


class _Parser(argparse.ArgumentParser):
    """argparse, with a bad argument reported in one line (exit status 1)."""

    def error(self, message):
        print(f"memsim trace: error: {message} (memsim trace --help lists the options)", file=sys.stderr)
        sys.exit(1)


def main(argv=None) -> int:
    global _stop
    _stop = None
    parser = _Parser(prog="memsim trace", description=(
        "Trace one training iteration (forward, loss, backward, optimizer step) into a DTR operator log "
        "that memsim replays (docs/tracing.md)."))
    parser.add_argument("model", nargs="?", help="a torchvision classification model name, or FILE.py:factory")
    parser.add_argument("--out", help="the log to write (its sidecar is OUT.meta.json)")
    parser.add_argument("--batch", type=int, default=1, help="batch size (default 1)")
    parser.add_argument("--input-shape", type=_shape, help="one sample's shape, e.g. 3,224,224 (default: the model's)")
    parser.add_argument("--optimizer", choices=OPTIMIZERS,
                        help="optimizer step traced (default sgd) for a model whose factory returns none of its own")
    parser.add_argument("--micro-batches", type=int, default=1,
                        help="gradient accumulation: K forward and backward passes, then one optimizer step (default 1)")
    parser.add_argument("--device", choices=("cpu", "cuda"), default="cpu")
    parser.add_argument("--repeat", type=int, default=3, help="timing iterations; each op's time is the median")
    parser.add_argument("--no-rss", action="store_true", help="skip the resident-set measurement process")
    parser.add_argument("--timeout", type=_seconds, default=DEFAULT_TIMEOUT_S,
                        help=f"stop after this many seconds (default {DEFAULT_TIMEOUT_S}; 0: no limit)")
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress lines")
    parser.add_argument("--list", action="store_true", help="list the torchvision models and exit")
    parser.add_argument("--report-fd", type=int, help=argparse.SUPPRESS)  # memsim trace's completion pipe
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:  # a bad argument (status 1, reported by _Parser.error), or --help (0)
        _report(_report_fd_in(sys.argv[1:] if argv is None else argv), "ok" if e.code == 0 else "error")
        raise
    if args.report_fd is not None:
        _die_with_parent()
    measure_rss = not args.no_rss and args.device == "cpu"
    progress = Progress(6 if measure_rss else 5, stream=None if args.quiet else sys.stderr)
    try:
        _install_stops(args.timeout, progress)
        if not args.list and (not args.model or not args.out):
            print("memsim trace: error: give MODEL and --out FILE (or --list)", file=sys.stderr)
            _report(args.report_fd, "error")
            return 1
        if not _torch_imports(args.report_fd):
            return 1
        if args.list:
            from tools.trace.models import classification_models

            try:
                print("\n".join(classification_models()), flush=True)
            except BrokenPipeError:  # `memsim trace --list | head`: the reader has what it wanted
                os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            _report(args.report_fd, "ok")
            return 0
        from tools.trace.tracer import trace

        try:
            trace(args.model, args.out, batch=args.batch, input_shape=args.input_shape,
                  optimizer_name=args.optimizer, device=args.device, repeat=args.repeat, micro_batches=args.micro_batches,
                  measure_rss=measure_rss, progress=progress)
        except TraceError:
            raise
        except (Exception, SystemExit) as e:  # model code failing, or ending the process, after the warm-up
            raise TraceError(f"{args.model}: {describe_exception(e, factory_path(args.model))} during pass {progress.current} of "
                             f"{progress.passes} ({progress.what}); no log was written", e)
        signal.setitimer(signal.ITIMER_REAL, 0)
        _report(args.report_fd, "ok")
        return 0
    except (TraceError, Stopped, Exception) as e:
        if _stop is not None:  # whatever became of it on its way here
            print(f"memsim trace: {_stop}", file=sys.stderr)
            _report(args.report_fd, "error")
            return _stop.status
        if not isinstance(e, TraceError):  # a defect of the tracer itself: still one line
            e = TraceError(f"internal error of the tracer (please report it): {describe_exception(e)}", e)
        print(f"memsim trace: error: {error_text(e)}", file=sys.stderr)
        _report(args.report_fd, "error")
        return 1


if __name__ == "__main__":
    sys.exit(main())
