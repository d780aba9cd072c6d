#!/usr/bin/python3
"""A hostile-input sweep of the memsim binary (issue 31, "Done when").

Runs memsim on generated inputs of several kinds and classifies every run:
  crash   killed by a signal, or an exit status other than 0 and 1
  hang    still running after --timeout seconds (then killed)
  unclear exit 1 whose stderr is not one 'memsim: error: ...' line, or holds text of a
          library (yaml-cpp, iostream, filesystem, what(), terminate, Traceback)
  wrong   exit 0 whose outputs break a fact checked independently (below)
  ok      anything else: exit 0 with sound outputs, or a clear error
Kinds (count per kind with --per-kind):
  set         scenarios/example.yaml with 1-3 random --set overrides: known and
              broken keys (empty names, unknown, nested past a value), hostile values
  yaml        mutated scenario texts: lines dropped, doubled, values replaced,
              second documents, anchors and aliases, tabs, bad UTF-8
  dtr_valid   random valid DTR logs (training-shaped: weights, a forward chain whose
              activations live until their backward op, views, MUTATE, COPY) run
              under a random policy row; exit 0 is checked: no-policy runs against
              `memsim info` (ops, compute, baseline peak), pool runs against info's
              pool peak, every run: live peak <= peak, time >= compute, no INCOMPLETE
              mark, a repeated run byte-identical
  dtr_mutated valid logs with one to three mutations: a number replaced by a hostile
              one, a line dropped, doubled or cut, a key doubled, names swapped
  special     every input slot (scenario, platform file, DTR log, profile folder,
              records file, --out, a sweep point's summary.json and log.txt for merge)
              given a FIFO, /dev/zero, a directory, an empty file, a dangling link, a
              link loop, a path through a file, an over-long path
  merge       a real emit-jobs sweep whose point summaries are mutated (types, signs,
              huge numbers, keys doubled, cut short, a formula as text) before merge;
              exit 0 is checked: one results.csv row per point
  find        random --until conditions (nesting, nan/inf, unknown fields, long chains)
  records     random and broken records files for `memsim plan --records`
Usage: scripts/hostile_sweep.py [--memsim build/memsim] [--per-kind 100] [--seed 1]
       [--work /tmp/memsim_hostile_sweep] [--kinds set,yaml,...]
Prints the counts per kind and every finding; exits 1 if anything was found.
"""
import argparse
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

HOSTILE_NUMBERS = ["0", "-1", "-0", "1e308", "-1e308", "1e400", "nan", ".nan", "inf", "-.inf", "9223372036854775807",
                   "9223372036854775808", "18446744073709551616", "4.9e-324", "0x10", "1_000", "1e-320", "2147483648",
                   "9007199254740993", "00", "+1", " 1", "1:2:3", "", "''", "~", "null", "true", "[]", "{}", "[1, [2]]",
                   "abc", "=1+2", "é", "\u202e", "1GB", "1 TB", "-5MB", "1e30B", "3ms", "1e306min", "nanms", "0.5", "1"]
KNOWN_KEYS = ["workload.batch", "workload.profile", "workload.dtr_log", "workload.costs", "platform", "platform.gpu.speed_scale",
              "platform.memory.budget", "platform.memory.budget_ratio", "platform.memory.allow_ratio_above_one",
              "platform.disk.bandwidth", "platform.disk.read_bandwidth", "platform.disk.latency", "policy.allocator",
              "policy.semantics", "policy.swap.mode", "policy.swap.select", "policy.swap.prefetch",
              "policy.swap.prefetch.lead_ops", "policy.swap.prefetch.lead_ms", "policy.recompute.heuristic",
              "policy.recompute.planner", "policy.recompute.max_overhead", "output.events", "output.gantt",
              "output.trace", "output.dir", "name", "sweep", "sweep.workload.batch", "workload.synthetic", "workload.n"]
BROKEN_KEYS = ["platform.", ".platform", "platform..memory", "", ".", "workload.batch.x", "policy.swap.mode.x",
               "nosuch", "platform.memory.budget_ratio.", "a" * 300, "policy..", "sweep.", "output.dir.x"]
POLICIES = ["", "--set policy.swap.mode=sync", "--set policy.swap.mode=semi_sync", "--set policy.swap.mode=async",
            "--set policy.swap.mode=async --set policy.swap.prefetch=eager",
            "--set policy.swap.mode=async --set policy.swap.prefetch=just_in_time",
            "--set policy.swap.mode=async --set policy.swap.select=budget",
            "--set policy.swap.mode=sync --set policy.swap.select=fixed_buffer",
            "--set policy.swap.mode=semi_sync --set policy.swap.select=hideable",
            "--set policy.semantics=reference --set policy.swap.mode=async",
            "--set policy.semantics=reference --set policy.swap.mode=semi_sync",
            "--set policy.semantics=dtr --set policy.recompute.heuristic=dtr",
            "--set policy.recompute.heuristic=lru", "--set policy.recompute.heuristic=size",
            "--set policy.recompute.heuristic=megengine", "--set policy.recompute.heuristic=msps",
            "--set policy.recompute.planner=capuchin", "--set policy.recompute.planner=sublinear",
            "--set policy.recompute.planner=msps_on_demand",
            "--set policy.allocator=pool", "--set policy.allocator=planner:greedy_by_size",
            "--set policy.allocator=planner:mincostflow", "--set policy.allocator=planner:greedy_by_size_offsets"]
PROGRESS = re.compile(r"^\[\d+/\d+\] ")  # find's and sweep's progress lines
LIBRARY_TEXT = ["yaml-cpp", "bad conversion", "basic_filebuf", "basic_ios", "what()", "terminate called", "Traceback",
                "std::", "filesystem error", "bad_alloc", "bad_array", "BadSubscript",
                "AddressSanitizer", "runtime error:", "Aborted", "Segmentation", "Assertion"]


class Sweep:
    def __init__(self, args):
        self.memsim = os.path.abspath(args.memsim)
        self.timeout = args.timeout
        self.work = args.work
        self.rng = random.Random(args.seed)
        self.counts = {}
        self.findings = []
        self.messages = {}  # kind -> the errors given (numbers as N) -> count

    def run(self, kind, argv, stdin=None, cwd=ROOT):
        """Runs memsim; returns (class, rc, stderr)."""
        try:
            p = subprocess.run([self.memsim] + argv, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, timeout=self.timeout, start_new_session=True)
        except subprocess.TimeoutExpired as e:
            return self.record(kind, "hang", None, "", argv)
        err = p.stderr.decode("utf-8", "replace")
        if p.returncode < 0 or p.returncode not in (0, 1, 2) or (p.returncode == 2 and argv[0] != "run"):
            return self.record(kind, "crash", p.returncode, err, argv)
        if p.returncode in (1, 2):  # 2: a run that ended out of memory or thrashing (a result)
            lines = [l for l in err.splitlines() if l.strip() and not PROGRESS.match(l)]
            prefix = "memsim: error: " if p.returncode == 1 else ("memsim: oom: ", "memsim: thrash: ")
            if len(lines) != 1 or not lines[0].startswith(prefix) or any(t in err for t in LIBRARY_TEXT):
                return self.record(kind, "unclear", p.returncode, err, argv)
        return self.record(kind, "ok", p.returncode, err, argv)

    def record(self, kind, cls, rc, err, argv, note=""):
        c = self.counts.setdefault(kind, {"inputs": 0, "exit 0": 0, "exit 1": 0, "exit 2": 0, "crash": 0, "hang": 0, "unclear": 0,
                                          "wrong": 0})
        if cls != "wrong":
            c["inputs"] += 1
            if rc == 0:
                c["exit 0"] += 1
            elif rc in (1, 2):
                c[f"exit {rc}"] += 1
        if rc in (1, 2) and cls == "ok":
            self.messages.setdefault(kind, {}).setdefault(re.sub(r"[0-9]+", "N", err.strip().splitlines()[-1])[:110], 0)
            self.messages[kind][re.sub(r"[0-9]+", "N", err.strip().splitlines()[-1])[:110]] += 1
        if cls not in ("ok",):
            c[cls] += 1
            self.findings.append(f"[{kind}] {cls} rc={rc}: memsim {' '.join(argv)}\n    {err.strip()[:400]} {note}")
        return cls, rc, err

    def wrong(self, kind, argv, note):
        self.record(kind, "wrong", 0, "", argv, note)

    def path(self, *parts):
        p = os.path.join(self.work, *parts)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        return p

    def write(self, name, text, mode="w"):
        p = self.path(name)
        with open(p, mode) as f:
            f.write(text)
        return p

    # ---- set --------------------------------------------------------------------------
    def kind_set(self, n):
        for i in range(n):
            sets = []
            for _ in range(self.rng.randint(1, 3)):
                key = self.rng.choice(KNOWN_KEYS if self.rng.random() < 0.75 else BROKEN_KEYS)
                sets += ["--set", f"{key}={self.rng.choice(HOSTILE_NUMBERS)}"]
            self.run("set", ["run", "scenarios/example.yaml", "-q", "--out", self.path("set", str(i))] + sets)

    # ---- yaml -------------------------------------------------------------------------
    def kind_yaml(self, n):
        base = [l for f in ("scenarios/example.yaml", "scenarios/swap_modes.yaml", "scenarios/budget_tradeoff.yaml")
                for l in [open(os.path.join(ROOT, f)).read()]]
        extras = ["---\nname: second\n", "a: &x [*x]\n", "x: &a {b: 1}\ny: *a\n", "\t\tname: tab\n", "name: [unclosed\n",
                  "platform: {memory: {budget: 1e400B}}\n", "sweep: {platform.gpu.speed_scale: []}\n",
                  "sweep: {nosuch.key: [1, 2]}\n", "workload: {dtr_log: /dev/zero}\n", "workload: {profile: /}\n",
                  "platform: /proc/self/status\n", "? [a]\n: b\n", "name: " + "x" * 5000 + "\n", "output: {dir: ''}\n",
                  "policy: {swap: {mode: async, prefetch: {lead_ops: -1}}}\n", "!!binary name: 1\n", "<<: *undefined\n"]
        for i in range(n):
            lines = self.rng.choice(base).splitlines(keepends=True)
            for _ in range(self.rng.randint(1, 3)):
                r = self.rng.random()
                at = self.rng.randrange(len(lines)) if lines else 0
                if r < 0.25 and lines:
                    del lines[at]
                elif r < 0.4 and lines:
                    lines.insert(at, lines[at])
                elif r < 0.7 and lines and ":" in lines[at]:
                    k = lines[at].split(":", 1)[0]
                    lines[at] = f"{k}: {self.rng.choice(HOSTILE_NUMBERS)}\n"
                else:
                    lines.insert(at, self.rng.choice(extras))
            text = "".join(lines)
            if self.rng.random() < 0.1:
                data = bytearray(text.encode())
                data[self.rng.randrange(len(data))] = self.rng.choice([0xff, 0xc3, 0x00, 0x80])
                p = self.write(f"yaml/{i}.yaml", bytes(data), "wb")
            else:
                p = self.write(f"yaml/{i}.yaml", text)
            self.run("yaml", ["run", p, "-q", "--out", self.path("yaml", f"out{i}")])

    # ---- DTR logs ---------------------------------------------------------------------
    def dtr_log(self):
        """A training-shaped valid DTR log, as lines."""
        r = self.rng
        out, names = [], []

        def mem(name, size):
            out.append(json.dumps({"INSTRUCTION": "MEMORY", "MEMORY": str(size), "NAME": name}))

        def call(name, args, results, alias=None):
            out.append(json.dumps({"ARGS": args, "INSTRUCTION": "CALL", "NAME": name, "RESULT": results,
                                   "TIME": str(r.randint(0, 3_000_000))}))
            for k, res in enumerate(results):
                mem(res, 0 if r.random() < 0.05 else r.choice([64, 256, 1024, 4096, 65536]) * r.randint(1, 8))
                a = alias if alias is not None and k == 0 else -1
                out.append(json.dumps({"ALIAS": str(a), "INSTRUCTION": "ALIAS", "NAME": res}))

        if r.random() < 0.3:
            out.append(json.dumps({"ANNOTATION": "START", "INSTRUCTION": "ANNOTATE"}))
        weights = [f"w{i}" for i in range(r.randint(1, 6))]
        for w in weights:
            out.append(json.dumps({"INSTRUCTION": "CONSTANT", "NAME": w}))
            mem(w, r.randint(0, 2048))
        layers = r.randint(1, 60)
        acts, x = [], weights[0]
        for i in range(layers):
            a = f"a{i}"
            view = r.random() < 0.15
            call("conv" if not view else "view", [x, r.choice(weights)], [a], alias=0 if view else None)
            acts.append(a)
            if r.random() < 0.1:
                out.append(json.dumps({"ARGS": [a], "INSTRUCTION": "MUTATE", "MUTATE": [0], "NAME": "relu_",
                                       "TIME": str(r.randint(0, 100000))}))
            if r.random() < 0.05:
                out.append(json.dumps({"DST": f"c{i}", "INSTRUCTION": "COPY", "SRC": a}))
                out.append(json.dumps({"INSTRUCTION": "RELEASE", "NAME": f"c{i}"}))
            x = a
        if r.random() < 0.9:
            out.append(json.dumps({"ANNOTATION": "BACKWARD", "INSTRUCTION": "ANNOTATE"}))
        call("loss", [x], ["g"])
        g = "g"
        for i in reversed(range(layers)):
            ng = f"g{i}"
            call("conv_backward", [g, acts[i]], [ng] + ([f"dw{i}"] if r.random() < 0.5 else []))
            out.append(json.dumps({"INSTRUCTION": "RELEASE", "NAME": acts[i]}))
            out.append(json.dumps({"INSTRUCTION": "RELEASE", "NAME": g}))
            if f"dw{i}" in out[-4]:
                out.append(json.dumps({"INSTRUCTION": "RELEASE", "NAME": f"dw{i}"}))
            g = ng
        return out

    def summary(self, folder):
        with open(os.path.join(folder, "summary.json")) as f:
            return json.load(f)

    def kind_dtr_valid(self, n):
        for i in range(n):
            log = self.write(f"dtr_valid/{i}.log", "\n".join(self.dtr_log()) + "\n")
            scen = self.write(f"dtr_valid/{i}.yaml", f"name: v{i}\nworkload: {{dtr_log: {log}}}\n")
            info = subprocess.run([self.memsim, "info", "--dtr-log", log, "--json"], capture_output=True, timeout=self.timeout)
            if info.returncode != 0:
                self.record("dtr_valid", "unclear", info.returncode, info.stderr.decode(), ["info", "--dtr-log", log])
                continue
            facts = json.loads(info.stdout)
            policy = self.rng.choice(POLICIES).split()
            ratio = self.rng.choice([None, 1.0, 0.95, 0.9, 0.8, 0.7, 0.5])
            if ratio is not None and policy:
                policy += ["--set", f"platform.memory.budget_ratio={ratio}"]
            out = self.path("dtr_valid", f"out{i}")
            argv = ["run", scen, "-q", "--out", out] + policy
            cls, rc, _ = self.run("dtr_valid", argv)
            if cls != "ok" or rc == 1:
                continue
            s = self.summary(out)
            problems = []
            if os.path.exists(os.path.join(out, "INCOMPLETE")):
                problems.append(f"INCOMPLETE mark after exit {rc}")
            if (rc == 2) != (s["status"] in ("oom", "thrash")):
                problems.append(f"exit {rc} with status {s['status']}")
            if s["ops"] != facts["ops"]:
                problems.append(f"ops {s['ops']} != info {facts['ops']}")
            if s["status"] == "ok":
                if s["live_peak_bytes"] > s["peak_bytes"]:
                    problems.append("live peak above peak")
                if s["time_ms"] + 1e-6 < s["iteration_compute_ms"]:
                    problems.append("time below compute")
            if not policy and s["status"] == "ok":
                if s["live_peak_bytes"] != facts["baseline_peak_bytes"]:
                    problems.append(f"live peak {s['live_peak_bytes']} != info baseline {facts['baseline_peak_bytes']}")
                if abs(s["compute_ms"] - facts["compute_ms"]) > 1e-6 * max(1, facts["compute_ms"]):
                    problems.append(f"compute {s['compute_ms']} != info {facts['compute_ms']}")
            if policy == ["--set", "policy.allocator=pool"] and s["peak_bytes"] != facts["pool_peak_bytes"]:
                problems.append(f"pool peak {s['peak_bytes']} != info {facts['pool_peak_bytes']}")
            if i % 5 == 0:  # determinism
                first = open(os.path.join(out, "summary.json"), "rb").read()
                subprocess.run([self.memsim] + argv, capture_output=True, timeout=self.timeout)
                if open(os.path.join(out, "summary.json"), "rb").read() != first:
                    problems.append("a repeated run differs")
            if problems:
                self.wrong("dtr_valid", argv, "; ".join(problems))

    def kind_dtr_mutated(self, n):
        for i in range(n):
            lines = self.dtr_log()
            for _ in range(self.rng.randint(1, 3)):
                at = self.rng.randrange(len(lines))
                r = self.rng.random()
                if r < 0.4:
                    d = json.loads(lines[at])
                    k = self.rng.choice(list(d))
                    d[k] = self.rng.choice([self.rng.choice(HOSTILE_NUMBERS), -1, 2**63, 2**64, 1e308, [], {}, None,
                                            "x", ["zz"], [0, 0], [5]])
                    lines[at] = json.dumps(d)
                elif r < 0.55:
                    del lines[at]
                elif r < 0.7:
                    lines.insert(at, lines[at])
                elif r < 0.8:
                    lines[at] = lines[at][: self.rng.randrange(len(lines[at]))]
                elif r < 0.9:
                    k = lines[at].split('"')[1]
                    lines[at] = lines[at][:-1] + f', "{k}": "1"' + "}"
                else:
                    b = self.rng.randrange(len(lines))
                    lines[at], lines[b] = lines[b], lines[at]
            log = self.write(f"dtr_mut/{i}.log", "\n".join(lines) + "\n")
            self.run("dtr_mutated", ["info", "--dtr-log", log])
            scen = self.write(f"dtr_mut/{i}.yaml", f"name: m{i}\nworkload: {{dtr_log: {log}}}\n")
            self.run("dtr_mutated", ["run", scen, "-q", "--out", self.path("dtr_mut", f"out{i}")] +
                     self.rng.choice(POLICIES).split())

    # ---- special files ----------------------------------------------------------------
    def specials(self):
        d = self.path("special", "x")
        d = os.path.dirname(d)
        fifo = os.path.join(d, "fifo")
        if not os.path.exists(fifo):
            os.mkfifo(fifo)
        empty = os.path.join(d, "empty")
        open(empty, "w").close()
        folder = os.path.join(d, "folder")
        os.makedirs(folder, exist_ok=True)
        dangling = os.path.join(d, "dangling")
        loop = os.path.join(d, "loop")
        for link, target in ((dangling, os.path.join(d, "missing")), (loop, loop)):
            if not os.path.islink(link):
                os.symlink(target, link)
        afile = os.path.join(d, "afile")
        open(afile, "w").write("x")
        return {"fifo": fifo, "/dev/zero": "/dev/zero", "/dev/null": "/dev/null", "directory": folder, "empty": empty,
                "dangling link": dangling, "link loop": loop, "through a file": os.path.join(afile, "x"),
                "too long": os.path.join(d, *(["y" * 250] * 20))}

    def kind_special(self, n):
        sp = self.specials()
        ok_scen = os.path.join(ROOT, "scenarios/example.yaml")
        slots = {
            "scenario": lambda p: ["run", p, "-q", "--out", self.path("special", "o")],
            "platform file": lambda p: ["run", ok_scen, "-q", "--set", f"platform={p}", "--out", self.path("special", "o")],
            "dtr log (info)": lambda p: ["info", "--dtr-log", p],
            "dtr log (run)": lambda p: ["run", self.write("special/d.yaml", f"workload: {{dtr_log: {p}}}\n"), "-q",
                                        "--out", self.path("special", "o")],
            "profile folder": lambda p: ["info", p, "--batch", "4"],
            "records file": lambda p: ["plan", "--records", p],
            "--out": lambda p: ["run", ok_scen, "-q", "--out", p],
            "merge folder": lambda p: ["merge", p],
        }
        for slot, argv in slots.items():
            for what, p in sp.items():
                self.run("special", argv(p))
        # A sweep point's own files replaced by special files, then merge.
        base = self.emit_sweep("special_sweep")
        for what, p in sp.items():
            if what == "too long":  # no link can point there
                continue
            for name in ("summary.json", "log.txt", "sweep.json"):
                target = os.path.join(base, "points", "0001", name) if name != "sweep.json" else os.path.join(base, name)
                saved = target + ".saved"
                if os.path.lexists(target):
                    os.rename(target, saved)
                if what == "fifo":
                    os.mkfifo(target)
                elif what in ("/dev/zero", "/dev/null", "dangling link"):
                    os.symlink(p, target)
                elif what == "directory":
                    os.makedirs(target)
                elif what == "empty":
                    open(target, "w").close()
                else:
                    os.symlink(p, target)
                cls, rc, _ = self.run("special", ["merge", base])
                if cls == "ok" and rc == 0 and name == "summary.json":  # that point must be an error row
                    rows = open(os.path.join(base, "results.csv")).read().splitlines()[1:]
                    if not any(r.startswith("0001,") and ",error," in r for r in rows):
                        self.wrong("special", ["merge", base], f"point 0001 with a {what} summary.json is not an error row")
                if os.path.isdir(target) and not os.path.islink(target):
                    os.rmdir(target)
                else:
                    os.remove(target)
                if os.path.lexists(saved):
                    os.rename(saved, target)

    # ---- merge ------------------------------------------------------------------------
    def emit_sweep(self, name):
        base = self.path(name, "sweep")
        shutil.rmtree(base, ignore_errors=True)
        scen = self.write(f"{name}/s.yaml", "name: s\nworkload: {synthetic: uniform_linear, n: 4}\n"
                                            "sweep:\n  platform.gpu.speed_scale: [0.5, 1, 2]\n")
        subprocess.run([self.memsim, "sweep", scen, "--emit-jobs", base], cwd=ROOT, capture_output=True, check=True)
        with open(os.path.join(base, "jobs.txt")) as f:
            for line in f:
                if line.strip() and not line.startswith("#"):
                    subprocess.run(line, shell=True, cwd=ROOT, capture_output=True)
        return base

    def kind_merge(self, n):
        base = self.emit_sweep("merge")
        points = sorted(os.listdir(os.path.join(base, "points")))
        originals = {p: open(os.path.join(base, "points", p, "summary.json")).read() for p in points}
        for i in range(n):
            p = self.rng.choice(points)
            d = json.loads(originals[p])
            text = None
            for _ in range(self.rng.randint(1, 3)):
                r = self.rng.random()
                k = self.rng.choice(list(d))
                if r < 0.5:
                    d[k] = self.rng.choice([-1, 2**64, 1e308, float("nan"), "x", "=HYPERLINK(1)", None, [], {}, True,
                                            "\u0000\u001b[31m", "a" * 100000])
                elif r < 0.7:
                    del d[k]
                elif r < 0.8:
                    d[self.rng.choice(["extra", "details", "status"])] = "error"
            try:
                text = json.dumps(d)
            except ValueError:
                text = originals[p]
            r = self.rng.random()
            if r < 0.15:
                text = text[: self.rng.randrange(len(text))]
            elif r < 0.25:
                text = text[:-1] + ', "status": "ok"}'
            elif r < 0.3:
                text = "[" * 10000 + "]" * 10000
            open(os.path.join(base, "points", p, "summary.json"), "w").write(text)
            if self.rng.random() < 0.2:
                open(os.path.join(base, "points", p, "log.txt"), "w").write("=cmd|' /C calc'!A0\x07" * 1000)
            cls, rc, _ = self.run("merge", ["merge", base])
            if cls == "ok" and rc == 0:
                rows = open(os.path.join(base, "results.csv")).read().count("\n") - 1
                if rows != len(points):
                    self.wrong("merge", ["merge", base], f"{rows} rows for {len(points)} points")
            open(os.path.join(base, "points", p, "summary.json"), "w").write(originals[p])

    # ---- find -------------------------------------------------------------------------
    def kind_find(self, n):
        scen = self.write("find/s.yaml", "name: f\nworkload: {synthetic: uniform_linear, n: 4}\n")
        fields = ["overhead", "time_ms", "peak_bytes", "nosuch", "details.forward_ms", "status", "scenario_resolved.x"]
        ops = ["<=", ">=", "<", ">", "==", "!=", "=", "<<", ""]
        for i in range(n):
            r = self.rng.random()
            if r < 0.2:
                depth = self.rng.choice([31, 32, 33, 1000, 50000])
                cond = "(" * depth + "overhead <= 2" + ")" * depth
            elif r < 0.3:
                cond = " and ".join(["overhead <= 2"] * self.rng.choice([2, 1000, 6000]))
            else:
                parts = [f"{self.rng.choice(fields)} {self.rng.choice(ops)} {self.rng.choice(HOSTILE_NUMBERS)}"
                         for _ in range(self.rng.randint(1, 3))]
                cond = f" {self.rng.choice(['and', 'or', 'AND', '&&'])} ".join(parts)
                if self.rng.random() < 0.2:
                    cond = "(" + cond
            self.run("find", ["find", scen, "--vary", "platform.gpu.speed_scale", "--range", "0.5..2", "--grid", "3",
                              "-j", "1", "--until", cond, "--out", self.path("find", f"o{i}")])

    # ---- records ----------------------------------------------------------------------
    def kind_records(self, n):
        for i in range(n):
            recs = []
            first = 0
            for k in range(self.rng.randint(0, 50)):
                first += self.rng.randint(0, 3)
                recs.append({"id": k, "size": self.rng.randint(1, 10000), "first": first,
                             "last": first + self.rng.randint(0, 20)})
            for _ in range(self.rng.randint(0, 2)):
                if recs:
                    rec = self.rng.choice(recs)
                    rec[self.rng.choice(list(rec))] = self.rng.choice([-1, 2**63, 2**64, 1e308, 2**31, "x", None, 0.5])
            text = json.dumps({"records": recs})
            if self.rng.random() < 0.1:
                text = text[: self.rng.randrange(max(1, len(text)))]
            p = self.write(f"records/{i}.json", text)
            strategy = self.rng.choice(["greedy_by_breadth", "greedy_by_size", "mincostflow", "greedy_by_size_offsets",
                                        "best_offsets", "mxnet", "greedy_best"])
            argv = ["plan", "--records", p, "-s", strategy] + (["--offsets"] if self.rng.random() < 0.5 else [])
            proc = subprocess.run([self.memsim] + argv, cwd=ROOT, capture_output=True, timeout=self.timeout)
            cls, rc, _ = self.run("records", argv)
            if cls == "ok" and rc == 0:
                problem = self.check_plan(recs, json.loads(proc.stdout))
                if problem:
                    self.wrong("records", argv, problem)

    @staticmethod
    def check_plan(recs, plan):
        """An independent check of a plan: every record in an object at least its size, or at
        an offset within the total; no two records alive together share bytes."""
        n = len(recs)
        if "offsets" in plan:
            where = [(o, o + r["size"]) for o, r in zip(plan["offsets"], recs)]
            if len(where) != n or any(end > plan["total"] for _, end in where):
                return "an offset range past the total"
        else:
            ids, sizes = plan["object_ids"], plan["object_sizes"]
            if len(ids) != n or sum(sizes) != plan["total"] or any(sizes[k] < r["size"] for k, r in zip(ids, recs)):
                return "object sizes do not hold their records or add up to the total"
            where = [(k, k + 1) for k in ids]
        for i in range(n):
            for j in range(i + 1, n):
                a, b = recs[i], recs[j]
                alive_together = a["first"] <= b["last"] and b["first"] <= a["last"]
                if "offsets" in plan and (a["size"] == 0 or b["size"] == 0):
                    continue
                if alive_together and where[i][0] < where[j][1] and where[j][0] < where[i][1]:
                    return f"records {i} and {j} are alive together and share bytes"
        return None


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--memsim", default=os.path.join(ROOT, "build/memsim"))
    ap.add_argument("--per-kind", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=60)
    ap.add_argument("--work", default=os.path.join(os.environ.get("TMPDIR", "/tmp"), "memsim_hostile_sweep"))
    ap.add_argument("--messages", action="store_true", help="list the distinct errors given, per kind")
    ap.add_argument("--kinds", default="set,yaml,dtr_valid,dtr_mutated,special,merge,find,records")
    args = ap.parse_args()
    shutil.rmtree(args.work, ignore_errors=True)
    os.makedirs(args.work)
    sweep = Sweep(args)
    for kind in args.kinds.split(","):
        getattr(sweep, "kind_" + kind)(args.per_kind)
        c = sweep.counts.get(kind, {})
        print(f"{kind:12} " + ", ".join(f"{k} {v}" for k, v in c.items()), flush=True)
    total = sum(c["inputs"] for c in sweep.counts.values())
    found = len(sweep.findings)
    print(f"total: {total} runs, {found} findings")
    for f in sweep.findings:
        print(f)
    if args.messages:
        for kind, msgs in sweep.messages.items():
            print(f"--- {kind}: the clear errors and results given")
            for m, k in sorted(msgs.items(), key=lambda x: -x[1]):
                print(f"{k:5}  {m}")
    sys.exit(1 if found else 0)


if __name__ == "__main__":
    main()
