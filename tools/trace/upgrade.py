"""Rewrites a log traced before in-place writes lost their aliasing results into the form
`memsim trace` writes now (docs/tracing.md, "Runs under the published simulator"), keeping
every operator and its measured TIME:

  python3 -m tools.trace.upgrade OLD.log NEW.log

The older tracer wrote an in-place write to a parameter, to optimizer state or to batch
norm's running statistics as a CALL result aliasing the written argument. Here a result
that aliases an argument of a CALL that also reads other storages is dropped, later
references to its name go to the argument it aliased, and a CALL left without a result
gets one of 0 bytes, released at once. Names are then numbered the way the tracer numbers
them (x0, x1, ... in order of definition), so an upgraded log equals a fresh trace of the
same iteration but for the times. The sidecar OUT.meta.json is copied with `upgraded`
added. A log with nothing to rewrite is copied unchanged.
"""
import json
import os
import sys

from tools.trace.models import TraceError


def _line(d: dict) -> str:
    return json.dumps(d, sort_keys=True, separators=(",", ":"))


def upgrade_lines(lines):
    """Returns (the rewritten lines as dicts, how many results were dropped or added)."""
    storage = {}  # name -> storage id
    rename = {}  # dropped name -> the name it stands for
    next_storage = 0
    out = []
    rewrites = 0

    def resolve(name):
        while name in rename:
            name = rename[name]
        return name

    def new_storage(name):
        nonlocal next_storage
        next_storage += 1
        storage[name] = next_storage

    i = 0
    while i < len(lines):
        d = dict(lines[i])
        kind = d.get("INSTRUCTION")
        if kind == "CONSTANT":
            new_storage(d["NAME"])
            out += [d, lines[i + 1]]
            i += 2
            continue
        if kind == "CALL":
            args = [resolve(a) for a in d["ARGS"]]
            d["ARGS"] = args
            kept = []
            for k, result in enumerate(d["RESULT"]):
                memory, alias = lines[i + 1 + 2 * k], lines[i + 2 + 2 * k]
                index = int(alias["ALIAS"])
                if index >= 0:
                    aliased = storage[args[index]]
                    if any(storage[a] != aliased for a in args):
                        rename[result] = args[index]
                        rewrites += 1
                        continue
                    storage[result] = aliased
                else:
                    new_storage(result)
                kept += [memory, alias]
            i += 1 + 2 * len(d["RESULT"])
            d["RESULT"] = [m["NAME"] for m in kept[::2]]
            release = None
            if not d["RESULT"]:
                token = f"result_of_line_{i}"  # renumbered below
                rewrites += 1
                d["RESULT"] = [token]
                new_storage(token)
                kept = [{"INSTRUCTION": "MEMORY", "NAME": token, "MEMORY": "0"},
                        {"INSTRUCTION": "ALIAS", "NAME": token, "ALIAS": "-1"}]
                release = {"INSTRUCTION": "RELEASE", "NAME": token}
            out += [d] + kept + ([release] if release else [])
            continue
        if kind == "MUTATE":
            d["ARGS"] = [resolve(a) for a in d["ARGS"]]
            for m in d["MUTATE"]:
                new_storage(d["ARGS"][int(m)])
        elif kind in ("COPY", "COPY_FROM"):
            d["SRC"] = resolve(d["SRC"])
            if kind == "COPY":
                storage[d["DST"]] = storage[d["SRC"]]
        elif kind == "RELEASE" and d["NAME"] in rename:
            i += 1
            continue
        out.append(d)
        i += 1
    return out, rewrites


def renumber(lines):
    """x0, x1, ... in order of definition (CONSTANT, CALL result, COPY destination)."""
    names = {}

    def define(name):
        names.setdefault(name, f"x{len(names)}")
        return names[name]

    def use(name):
        return names.get(name, name)

    out = []
    for d in lines:
        d = dict(d)
        kind = d.get("INSTRUCTION")
        if kind == "CONSTANT":
            d["NAME"] = define(d["NAME"])
        elif kind == "CALL":
            d["ARGS"] = [use(a) for a in d["ARGS"]]
            d["RESULT"] = [define(r) for r in d["RESULT"]]
        elif kind == "MUTATE":
            d["ARGS"] = [use(a) for a in d["ARGS"]]
        elif kind == "COPY":
            d["SRC"] = use(d["SRC"])
            d["DST"] = define(d["DST"])
        elif kind == "COPY_FROM":
            d["SRC"], d["DST"] = use(d["SRC"]), use(d["DST"])
        elif kind in ("MEMORY", "ALIAS", "RELEASE"):
            d["NAME"] = use(d["NAME"])
        out.append(d)
    return out


def upgrade(src: str, dst: str) -> int:
    try:
        with open(src) as f:
            lines = [json.loads(text) for text in f if text.strip()]
    except (OSError, ValueError) as e:
        raise TraceError(f"cannot read the log '{src}': {e}")
    try:
        rewritten, rewrites = upgrade_lines(lines)
    except (KeyError, IndexError, ValueError, TypeError) as e:
        raise TraceError(f"'{src}' is not a log `memsim trace` wrote (at {type(e).__name__} {e})")
    if rewrites:
        rewritten = renumber(rewritten)
    from tools.trace.tracer import write_atomically

    meta_text = None
    if os.path.exists(src + ".meta.json"):
        with open(src + ".meta.json") as f:
            meta = json.load(f)
        meta["upgraded"] = ("tools/trace/upgrade.py: in-place writes read other storages without aliasing results; "
                            "operators and times as traced")
        meta_text = json.dumps(meta, indent=2, sort_keys=True) + "\n"
    write_atomically({dst: "\n".join(_line(d) for d in rewritten) + "\n",
                      **({dst + ".meta.json": meta_text} if meta_text else {})})
    return rewrites


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 2:
        print("usage: python3 -m tools.trace.upgrade OLD.log NEW.log", file=sys.stderr)
        return 1
    try:
        rewrites = upgrade(argv[0], argv[1])
    except TraceError as e:
        print(f"upgrade: error: {e}", file=sys.stderr)
        return 1
    print(f"{argv[1]}: {rewrites} results of in-place writes dropped or added" if rewrites
          else f"{argv[1]}: nothing to rewrite, copied")
    return 0


if __name__ == "__main__":
    sys.exit(main())
