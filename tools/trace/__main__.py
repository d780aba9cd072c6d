"""python3 -m tools.trace MODEL --out FILE [--batch N] [--input-shape C,H,W] ..."""
import argparse
import sys

from tools.trace.iteration import OPTIMIZERS
from tools.trace.models import TraceError


def _shape(text: str):
    try:
        dims = tuple(int(x) for x in text.replace("x", ",").split(",") if x.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"--input-shape must be integers like 3,224,224, got '{text}'")
    if not dims or any(d < 1 for d in dims):
        raise argparse.ArgumentTypeError(f"--input-shape must be positive integers like 3,224,224, got '{text}'")
    return dims


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="memsim trace", description=(
        "Trace one training iteration (forward, loss, backward, optimizer step) into a DTR operator log "
        "that memsim replays (docs/tracing.md)."))
    parser.add_argument("model", nargs="?", help="a torchvision classification model name, or FILE.py:factory")
    parser.add_argument("--out", help="the log to write (its sidecar is OUT.meta.json)")
    parser.add_argument("--batch", type=int, default=1, help="batch size (default 1)")
    parser.add_argument("--input-shape", type=_shape, help="one sample's shape, e.g. 3,224,224 (default: the model's)")
    parser.add_argument("--optimizer", choices=OPTIMIZERS, default="sgd", help="optimizer step traced (default sgd)")
    parser.add_argument("--device", choices=("cpu", "cuda"), default="cpu")
    parser.add_argument("--repeat", type=int, default=3, help="timing iterations; each op's time is the median")
    parser.add_argument("--no-rss", action="store_true", help="skip the resident-set measurement process")
    parser.add_argument("--list", action="store_true", help="list the torchvision models and exit")
    args = parser.parse_args(argv)
    try:
        if args.list:
            from tools.trace.models import classification_models

            print("\n".join(classification_models()))
            return 0
        if not args.model or not args.out:
            parser.error("give MODEL and --out FILE (or --list)")
        from tools.trace.tracer import trace

        trace(args.model, args.out, batch=args.batch, input_shape=args.input_shape, optimizer_name=args.optimizer,
              device=args.device, repeat=args.repeat, measure_rss=not args.no_rss)
        return 0
    except TraceError as e:
        print(f"memsim trace: error: {e}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
