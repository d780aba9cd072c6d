"""An independent reading of a DTR log's memory, for the tests: peak live bytes with
every storage allocated at its CONSTANT or CALL line (a MUTATE allocates a new version
of the storage and frees the old one after the operator) and freed when the last name
referring to it is released. Written from ../shared/dtr-logs/README.md, not from the
tracer, so the two can disagree."""
import json


def replay(path):
    storage_of = {}  # name -> storage id
    names_of = {}  # storage id -> number of names
    size = {}
    live = peak = 0
    ops = constants = 0
    next_id = 0
    with open(path) as f:
        lines = [json.loads(l) for l in f if l.strip()]
    i = 0

    def drop(name):
        nonlocal live
        s = storage_of.pop(name)
        names_of[s] -= 1
        if names_of[s] == 0:
            live -= size.pop(s)
            del names_of[s]

    def new_storage(name, nbytes):
        nonlocal next_id, live
        next_id += 1
        storage_of[name] = next_id
        names_of[next_id] = 1
        size[next_id] = nbytes
        live += nbytes

    while i < len(lines):
        d = lines[i]
        kind = d["INSTRUCTION"]
        if kind == "CONSTANT":
            new_storage(d["NAME"], int(lines[i + 1]["MEMORY"]))
            constants += 1
            peak = max(peak, live)
            i += 2
            continue
        if kind == "CALL":
            ops += 1
            args = d["ARGS"]
            for k, result in enumerate(d["RESULT"]):
                memory, alias = lines[i + 1 + 2 * k], lines[i + 2 + 2 * k]
                if int(alias["ALIAS"]) >= 0:
                    s = storage_of[args[int(alias["ALIAS"])]]
                    storage_of[result] = s
                    names_of[s] += 1
                else:
                    new_storage(result, int(memory["MEMORY"]))
            peak = max(peak, live)
            i += 1 + 2 * len(d["RESULT"])
            continue
        if kind == "MUTATE":
            ops += 1
            extra = sum(size[storage_of[d["ARGS"][k]]] for k in d["MUTATE"])
            peak = max(peak, live + extra)
            for k in d["MUTATE"]:  # the name's new version replaces the old one
                name = d["ARGS"][k]
                nbytes = size[storage_of[name]]
                drop(name)
                new_storage(name, nbytes)
        elif kind == "COPY":
            s = storage_of[d["SRC"]]
            storage_of[d["DST"]] = s
            names_of[s] += 1
        elif kind == "RELEASE":
            if d["NAME"] in storage_of:
                drop(d["NAME"])
        i += 1
    return {"ops": ops, "constants": constants, "peak_bytes": peak}


def published_runtime_problems(path):
    """What the published DTR simulator's optimized runtime (uwsampl/dtr-prototype,
    simrd) cannot run, as (line number, why) pairs: a CALL without a result (its parser
    unpacks the MEMORY and ALIAS lines of at least one), and an aliasing result of a CALL
    that reads another storage too (the aliased storage would gain a computed parent,
    which its region bookkeeping does not track; docs/tracing.md)."""
    with open(path) as f:
        lines = [json.loads(l) for l in f if l.strip()]
    storage_of = {}
    next_id = 0
    problems = []
    i = 0
    while i < len(lines):
        d = lines[i]
        kind = d["INSTRUCTION"]
        if kind in ("CONSTANT",):
            next_id += 1
            storage_of[d["NAME"]] = next_id
        elif kind == "CALL":
            if not d["RESULT"]:
                problems.append((i + 1, f"CALL {d['NAME']} has no result"))
            for k, result in enumerate(d["RESULT"]):
                alias = int(lines[i + 2 + 2 * k]["ALIAS"])
                if alias < 0:
                    next_id += 1
                    storage_of[result] = next_id
                    continue
                aliased = storage_of[d["ARGS"][alias]]
                storage_of[result] = aliased
                if any(storage_of[a] != aliased for a in d["ARGS"]):
                    problems.append((i + 1, f"{result} of {d['NAME']} aliases argument {alias} but the call "
                                            "reads other storages too"))
            i += 1 + 2 * len(d["RESULT"])
            continue
        elif kind == "MUTATE":
            for m in d["MUTATE"]:
                next_id += 1
                storage_of[d["ARGS"][int(m)]] = next_id
        elif kind in ("COPY", "COPY_FROM"):
            storage_of[d["DST"]] = storage_of[d["SRC"]]
        i += 1
    return problems
