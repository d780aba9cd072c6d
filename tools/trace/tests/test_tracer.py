"""The tracer's own tests (ctest runs them with Debian's /usr/bin/python3)."""
import contextlib
import io
import json
import os
import resource
import signal
import subprocess
import sys
import tempfile
import unittest

from tools.trace.__main__ import main
from tools.trace.models import TraceError, classification_models
from tools.trace.progress import Progress, duration, size
from tools.trace.tests.log_replay import published_runtime_problems, replay
from tools.trace.tracer import OP_TIME_TOLERANCE, installed_version, op_time_warning, trace
from tools.trace.upgrade import upgrade

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
TINY = os.path.join(HERE, "tiny_net.py")
BAD = os.path.join(HERE, "bad_factories.py")
# tiny_net.tiny at batch 2 as the tracer wrote it before in-place writes to constants lost
# their aliasing results (times as measured then).
TINY_BEFORE_UPGRADE = os.path.join(HERE, "data", "tiny_before_upgrade.log")


def lines_of(path):
    with open(path) as f:
        return [json.loads(l) for l in f]


# The keys memsim reads beside the published format's (models/workload/dtr_log.h), which
# an older log has not.
OPTIONAL_KEYS = {"ROLE", "ROLES", "FLOPS", "BYTES", "DTYPE", "RECOMPUTES"}


def without_times(lines, drop=frozenset()):
    return [{k: v for k, v in d.items() if k != "TIME" and k not in drop} for d in lines]


class TinyNetwork(unittest.TestCase):
    """tiny_net.Tiny at batch 2 (x: 2x2x4 float32 viewed as 2x8; labels: 2 int64).

    Constants (11, 576 B): x 64, labels 16, fc1.weight 256, fc1.bias 32, bn.weight 32,
    bn.bias 32, fc2.weight 64, fc2.bias 8, bn.running_mean 32, bn.running_var 32,
    bn.num_batches_tracked 8.
    Forward (18 ops): view(x), t(fc1.w), addmm [64], add_(num_batches_tracked: a result
    aliasing it, the call reads nothing else), empty [0], native_batch_norm [out 64, mean
    32, invstd 32; it reads running_mean and running_var and writes them in place, so
    they are arguments, not results], relu_ (MUTATE), detach (autograd saves relu's
    output), empty_like [mask 64], bernoulli_ and div_ (MUTATE, dropout's mask), mul
    [64], add (residual) [64], t(fc2.w), addmm [16], _log_softmax [16], detach,
    nll_loss_forward [4, 4].
    Backward and SGD (40 ops): 6 add_ on the parameters, each reading the parameter and
    its gradient, with one 0-byte result released at once (no memory), the rest as listed
    by the log.
    Peak by hand, constants 576 B first: addmm 640; batch norm 768; dropout mask 832;
    mul 896; residual add 960; logits 976; (free dropout output 912) log_softmax 928;
    loss 936; (free logits 920) ones_like 924; nll_loss_backward 940 (free 936);
    log_softmax backward 952 (free 920); fc2 grad input mm 984; fc2.weight grad mm 1048;
    fc2.bias grad sum 1056 (free 976); dropout backward mul 1040 (free 912);
    threshold_backward 976 (free 848); batch-norm backward 64+32+32 -> 976 (free 784);
    fc1.weight grad mm 256 -> 1040; fc1.bias grad sum 32 -> 1072 = the peak.
    (The MUTATEs hold both versions during the op: relu_ 832, bernoulli_/div_ 896,
    below 1072.)
    """

    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.TemporaryDirectory()
        cls.log = os.path.join(cls.dir.name, "tiny.log")
        cls.meta = trace(f"{TINY}:tiny", cls.log, batch=2, repeat=1, measure_rss=False, log=lambda *_: None)
        cls.lines = lines_of(cls.log)

    @classmethod
    def tearDownClass(cls):
        cls.dir.cleanup()

    def test_counts_worked_out_by_hand(self):
        self.assertEqual(self.meta["ops"], 58)
        self.assertEqual(self.meta["forward_ops"], 18)
        self.assertEqual(self.meta["mutates"], 3)
        self.assertEqual(self.meta["constants"], 11)
        self.assertEqual(self.meta["constant_bytes"], 576)
        self.assertEqual(self.meta["tracer_peak_bytes"], 1072)

    def test_independent_replay_of_the_log_agrees(self):
        self.assertEqual(replay(self.log), {"ops": 58, "constants": 11, "peak_bytes": 1072})

    def test_in_place_operators(self):
        mutates = [d["NAME"] for d in self.lines if d["INSTRUCTION"] == "MUTATE"]
        self.assertEqual(mutates, ["relu_", "bernoulli_", "div_"])
        updates = [(i, d) for i, d in enumerate(self.lines) if d["INSTRUCTION"] == "CALL" and d["NAME"] == "add_"]
        self.assertEqual(len(updates), 7)  # num_batches_tracked += 1, then 6 SGD updates
        aliases = {d["NAME"]: d["ALIAS"] for d in self.lines if d["INSTRUCTION"] == "ALIAS"}
        memory = {d["NAME"]: d["MEMORY"] for d in self.lines if d["INSTRUCTION"] == "MEMORY"}
        (_, counter), sgd = updates[0], updates[1:]
        self.assertEqual((counter["ARGS"], aliases[counter["RESULT"][0]]), (["x10"], "0"))
        # SGD: parameter k (constants x2..x7) and its gradient; one 0-byte result, released at once.
        self.assertEqual([d["ARGS"][0] for _, d in sgd], ["x2", "x3", "x4", "x5", "x6", "x7"])
        for i, d in sgd:
            (result,) = d["RESULT"]
            self.assertEqual((memory[result], aliases[result]), ("0", "-1"))
            self.assertEqual(self.lines[i + 3], {"INSTRUCTION": "RELEASE", "NAME": result})
        bn = next(d for d in self.lines if d.get("NAME") == "native_batch_norm")
        self.assertEqual(bn["ARGS"][3:5], ["x8", "x9"])  # the running statistics, read and written
        self.assertEqual([aliases[r] for r in bn["RESULT"]], ["-1", "-1", "-1"])

    def test_the_published_simulator_can_run_it(self):
        self.assertEqual(published_runtime_problems(self.log), [])

    def test_format(self):
        self.assertEqual(self.lines[0], {"INSTRUCTION": "ANNOTATE", "ANNOTATION": "START"})
        self.assertEqual(sum(1 for d in self.lines if d.get("ANNOTATION") == "BACKWARD"), 1)
        with open(self.log) as f:
            for text in f:
                self.assertEqual(text.strip(), json.dumps(json.loads(text), sort_keys=True, separators=(",", ":")))
        for d in self.lines:
            for key in ("MEMORY", "ALIAS", "TIME"):
                if key in d:
                    self.assertIsInstance(d[key], str)
        self.assertEqual(sorted(os.listdir(self.dir.name)), ["tiny.log", "tiny.log.meta.json"])

    def test_sidecar(self):
        with open(self.log + ".meta.json") as f:
            meta = json.load(f)
        for key in ("model", "batch", "input_shape", "device", "torch_version", "cpu_model", "date_utc",
                    "untraced_iteration_ns", "op_time_sum_ns", "tracer_peak_bytes"):
            self.assertIn(key, meta)
        self.assertEqual(meta["input_shape"], [2, 2, 4])
        times = sum(int(d["TIME"]) for d in self.lines if "TIME" in d)
        self.assertEqual(meta["op_time_sum_ns"], times)

    def test_upgrade_of_an_older_log_equals_a_fresh_trace_but_for_times(self):
        before = lines_of(TINY_BEFORE_UPGRADE)
        self.assertEqual(len(published_runtime_problems(TINY_BEFORE_UPGRADE)), 8)  # 6 SGD updates, 2 running stats
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "up.log")
            self.assertEqual(upgrade(TINY_BEFORE_UPGRADE, out), 14)  # 8 results dropped, 6 added
            after = lines_of(out)
            again = os.path.join(d, "again.log")
            self.assertEqual(upgrade(out, again), 0)  # nothing left to rewrite
            self.assertEqual(lines_of(again), after)
        self.assertEqual(without_times(after), without_times(self.lines, drop=OPTIONAL_KEYS))
        times = lambda lines: [d["TIME"] for d in lines if "TIME" in d]  # noqa: E731
        self.assertEqual(times(after), times(before))


def run_main(*args, timeout="0"):
    """tools.trace's main() in this process: (exit status, stderr). The signal handlers it
    installs are put back afterwards."""
    saved = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGALRM)}
    err = io.StringIO()
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            status = main([*args, "--repeat", "1", "--no-rss", "-q", "--timeout", timeout])
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        for s, handler in saved.items():
            signal.signal(s, handler)
    return status, err.getvalue()


class Errors(unittest.TestCase):
    """Every way a trace fails: exit status 1, one line naming the file or argument, no
    traceback, and nothing written."""

    def fails(self, *args, timeout="0"):
        with tempfile.TemporaryDirectory() as d:
            status, err = run_main(*args, "--out", os.path.join(d, "t.log"), timeout=timeout)
            self.assertEqual(os.listdir(d), [])
        self.assertEqual(status, 1, err)
        self.assertNotIn("Traceback", err)
        self.assertEqual(len(err.strip().splitlines()), 1, err)
        return err

    def test_unknown_model_lists_the_valid_ones(self):
        err = self.fails("resnet17")
        self.assertIn("unknown model 'resnet17'", err)
        self.assertIn("resnet18", err)
        self.assertIn("vit_b_16", err)

    def test_missing_factory_file(self):
        self.assertIn("factory file 'nowhere/model.py' not found", self.fails("nowhere/model.py:make"))

    def test_factory_file_that_is_a_folder(self):
        with tempfile.TemporaryDirectory() as d:
            folder = os.path.join(d, "model.py")
            os.mkdir(folder)
            self.assertIn(f"factory file '{folder}' is not a regular file", self.fails(f"{folder}:make"))

    def test_factory_that_raises_names_its_line(self):
        err = self.fails(f"{TINY}:raises")
        self.assertIn(f"raises() in '{TINY}' raised ValueError: this factory always fails (at {TINY}:34)", err)
        self.assertIn("MEMSIM_TRACE_TRACEBACK=1 shows the whole traceback", err)

    def test_the_whole_traceback_on_request(self):
        os.environ["MEMSIM_TRACE_TRACEBACK"] = "1"
        try:
            status, err = run_main(f"{TINY}:raises", "--out", "unused.log")
        finally:
            del os.environ["MEMSIM_TRACE_TRACEBACK"]
        self.assertEqual(status, 1)
        self.assertIn("Traceback (most recent call last)", err)
        self.assertIn('raise ValueError("this factory always fails")', err)

    def test_bad_argument_in_one_line(self):
        with self.assertRaises(SystemExit) as stop, contextlib.redirect_stderr(io.StringIO()) as err:
            main(["resnet18", "--out", "unused.log", "--input-shape", "3,a,4"])
        self.assertEqual(stop.exception.code, 1)
        self.assertEqual(err.getvalue(), "memsim trace: error: argument --input-shape: --input-shape must be integers "
                                         "like 3,224,224, got '3,a,4' (memsim trace --help lists the options)\n")

    def test_missing_factory_function(self):
        self.assertIn("has no function 'nothing'", self.fails(f"{TINY}:nothing"))

    def test_factory_ending_the_process(self):
        self.assertIn(f"exits_0() in '{BAD}' called sys.exit(0) (at {BAD}:", self.fails(f"{BAD}:exits_0"))
        self.assertIn(f"exits_3() in '{BAD}' called sys.exit(3)", self.fails(f"{BAD}:exits_3"))
        module = os.path.join(HERE, "exits_on_import.py")
        self.assertIn(f"factory file '{module}' called sys.exit(0) (at {module}:4) while loading",
                      self.fails(f"{module}:tiny"))

    def test_model_ending_the_process_after_the_warm_up(self):
        err = self.fails(f"{BAD}:exits_in_forward")
        self.assertIn(f"{BAD}:exits_in_forward: called sys.exit(0) (at {BAD}:", err)
        self.assertIn("during pass 3 of 5 (1 untraced iteration", err)

    def test_model_without_parameters(self):
        for factory in ("no_parameters", "frozen"):
            self.assertIn(f"{BAD}:{factory}: the model has no parameter that requires grad, so --optimizer sgd has "
                          "nothing to update; give --optimizer none", self.fails(f"{BAD}:{factory}"))

    def test_factory_returning_the_wrong_things(self):
        self.assertIn("not_a_module() in", self.fails(f"{BAD}:not_a_module"))
        self.assertIn("returned a model of type function; the model must be a torch.nn.Module",
                      self.fails(f"{BAD}:not_a_module"))
        self.assertIn("returned a loss_fn of type str", self.fails(f"{BAD}:loss_not_callable"))

    def test_loss_that_is_not_a_scalar(self):
        err = self.fails(f"{BAD}:vector_loss", "--batch", "2")
        self.assertIn("the backward of the first iteration raised RuntimeError: grad can be implicitly created only "
                      "for scalar outputs", err)

    def test_input_shape_rejected(self):
        err = self.fails("resnet18", "--input-shape", "5,32,32")
        self.assertIn("resnet18 rejected input of shape [1, 5, 32, 32]: the forward pass raised RuntimeError", err)

    def test_output_paths_refused_before_tracing(self):
        with tempfile.TemporaryDirectory() as d:
            a_file = os.path.join(d, "a_file")
            open(a_file, "w").close()
            os.mkdir(os.path.join(d, "a_folder.log"))
            for out, expected in ((os.path.join(a_file, "t.log"), f"{a_file} is not a directory"),
                                  (os.path.join(d, "a_folder.log"), None),
                                  ("/proc/t.log", "cannot create files in /proc")):
                with self.subTest(out=out):
                    status, err = run_main(f"{BAD}:never_returns", "--out", out)  # refused before the factory runs
                    self.assertEqual(status, 1)
                    self.assertIn(f"memsim trace: error: --out {out}: {expected}" if expected else
                                  f"memsim trace: error: --out {out} is a directory; give the log's file name", err)
            self.assertEqual(sorted(os.listdir(d)), ["a_file", "a_folder.log"])

    def test_timeout(self):
        err = self.fails(f"{BAD}:never_returns", timeout="0.5")
        self.assertIn("did not finish within --timeout 0.5 s (during pass 1 of 5 (building", err)

    def test_failed_write_leaves_nothing(self):
        """A file-size limit makes the log's write fail (EFBIG, as a full disk fails with
        ENOSPC) after the sidecar's temporary file was written."""
        with tempfile.TemporaryDirectory() as d:
            limit = lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))  # noqa: E731
            done = subprocess.run([sys.executable, "-m", "tools.trace", f"{TINY}:tiny", "--batch", "2", "--repeat", "1",
                                   "--no-rss", "-q", "--out", os.path.join(d, "t.log")], cwd=REPO, preexec_fn=limit,
                                  capture_output=True, text=True)
            self.assertEqual(os.listdir(d), [])
        self.assertEqual(done.returncode, 1, done.stderr)
        self.assertEqual(done.stderr, f"memsim trace: error: cannot write {os.path.join(d, 't.log')}: File too large; "
                                      "nothing was written\n")

    def test_classification_models(self):
        names = classification_models()
        self.assertEqual(len(names), 80)
        self.assertIn("maxvit_t", names)
        self.assertNotIn("fasterrcnn_resnet50_fpn", names)
        with self.assertRaises(TraceError):
            trace("not_a_model", "unused.log", measure_rss=False)


class InstalledVersion(unittest.TestCase):
    """The sidecar's torchvision_version, read from the installed metadata so that a model
    file without torchvision does not import it, is the version an import gives."""

    def test_metadata_agrees_with_the_imported_package(self):
        import torchvision

        self.assertEqual(installed_version("torchvision"), torchvision.__version__)

    def test_a_package_that_is_not_there(self):
        self.assertEqual(installed_version("memsim_no_such_package"), "not installed")

    def test_a_copy_without_metadata_ahead_on_the_path_is_not_vouched_for(self):
        with tempfile.TemporaryDirectory() as d:
            os.makedirs(os.path.join(d, "torchvision"))
            with open(os.path.join(d, "torchvision", "__init__.py"), "w") as f:
                f.write("__version__ = '0.0.0-shadow'\n")
            sys.path.insert(0, d)
            try:
                self.assertIsNone(installed_version("torchvision"))
            finally:
                sys.path.remove(d)


class ProgressAndTimes(unittest.TestCase):
    def test_durations(self):
        self.assertEqual([duration(ns) for ns in (850_000, 12_340_000, 40_800_000_000, 372_000_000_000)],
                         ["850 µs", "12.3 ms", "40.8 s", "6 min 12 s"])
        self.assertEqual([size(b) for b in (576, 1072, 102_539_352, 2_000_000_000)],
                         ["576 B", "1.0 KiB", "97.8 MiB", "1.86 GiB"])

    def test_pass_lines_and_operators_so_far(self):
        out = io.StringIO()
        progress = Progress(5, stream=out, interval_s=0)
        progress.start("recorded iteration")
        progress.operator_done(12)
        progress.start("timing", total_ops=58)
        progress.operator_done(40)
        self.assertEqual(out.getvalue().splitlines(), [
            "memsim trace: pass 1 of 5: recorded iteration",
            "memsim trace:   pass 1 of 5 (recorded iteration): 12 operators so far",
            "memsim trace: pass 2 of 5: timing",
            "memsim trace:   pass 2 of 5 (timing): 40 of 58 operators so far"])

    def test_a_trace_reports_every_pass(self):
        err = io.StringIO()
        with tempfile.TemporaryDirectory() as d:
            trace(f"{TINY}:tiny", os.path.join(d, "t.log"), batch=2, repeat=2, measure_rss=False, log=lambda *_: None,
                  progress=Progress(5, stream=err))
        passes = [l for l in err.getvalue().splitlines() if l.startswith("memsim trace: pass")]
        self.assertEqual([l.split(":")[1] for l in passes], [f" pass {k} of 5" for k in range(1, 6)])
        self.assertIn("memsim trace:   58 operators recorded", err.getvalue())

    def test_op_time_warning_outside_the_tolerance(self):
        self.assertEqual(OP_TIME_TOLERANCE, 0.25)
        self.assertIsNone(op_time_warning(4_000_000, 3_200_000))  # 1.25x: at the tolerance
        self.assertIsNone(op_time_warning(4_000_000, 5_000_000))  # 0.80x
        high = op_time_warning(40_800_000_000, 26_800_000_000)
        self.assertTrue(high.startswith("the operators' times sum to 40.8 s but the untraced iteration took 26.8 s "
                                        "(1.52x, outside the tolerance of 25%): memsim replays operator times, so "
                                        "`memsim run` reports 40.8 s as the no-policy time"), high)
        self.assertIn("load changing", high)
        self.assertIn("time outside the operators", op_time_warning(4_000_000, 6_000_000))


if __name__ == "__main__":
    unittest.main()
