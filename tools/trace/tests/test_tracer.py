"""The tracer's own tests (ctest runs them with Debian's /usr/bin/python3)."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

from tools.trace.models import TraceError, classification_models
from tools.trace.tests.log_replay import replay
from tools.trace.tracer import trace

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
TINY = os.path.join(HERE, "tiny_net.py")


def lines_of(path):
    with open(path) as f:
        return [json.loads(l) for l in f]


class TinyNetwork(unittest.TestCase):
    """tiny_net.Tiny at batch 2 (x: 2x2x4 float32 viewed as 2x8; labels: 2 int64).

    Constants (11, 576 B): x 64, labels 16, fc1.weight 256, fc1.bias 32, bn.weight 32,
    bn.bias 32, fc2.weight 64, fc2.bias 8, bn.running_mean 32, bn.running_var 32,
    bn.num_batches_tracked 8.
    Forward (18 ops): view(x), t(fc1.w), addmm [64], add_(num_batches_tracked: alias of a
    constant), empty [0], native_batch_norm [out 64, mean 32, invstd 32, running_mean and
    running_var as aliases of arguments 3 and 4], relu_ (MUTATE), detach (autograd saves
    relu's output), empty_like [mask 64], bernoulli_ and div_ (MUTATE, dropout's mask),
    mul [64], add (residual) [64], t(fc2.w), addmm [16], _log_softmax [16], detach,
    nll_loss_forward [4, 4].
    Backward and SGD (40 ops): 6 add_ on the parameters (aliases of constants: no memory),
    the rest as listed by the log.
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
        updates = [d for d in self.lines if d["INSTRUCTION"] == "CALL" and d["NAME"] == "add_"]
        self.assertEqual(len(updates), 7)  # num_batches_tracked += 1, then 6 SGD updates
        aliases = {d["NAME"]: d["ALIAS"] for d in self.lines if d["INSTRUCTION"] == "ALIAS"}
        self.assertTrue(all(aliases[u["RESULT"][0]] == "0" for u in updates))
        bn = next(d for d in self.lines if d.get("NAME") == "native_batch_norm")
        self.assertEqual([aliases[r] for r in bn["RESULT"]], ["-1", "-1", "-1", "3", "4"])

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


class Errors(unittest.TestCase):
    """Item 6: a clear message, exit status 1, and no log left behind."""

    def run_tracer(self, *args):
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "t.log")
            done = subprocess.run([sys.executable, "-m", "tools.trace", *args, "--out", out, "--repeat", "1",
                                   "--no-rss"], cwd=REPO, capture_output=True, text=True)
            self.assertEqual(os.listdir(d), [])
        self.assertEqual(done.returncode, 1, done.stderr)
        return done.stderr

    def test_unknown_model_lists_the_valid_ones(self):
        err = self.run_tracer("resnet17")
        self.assertIn("unknown model 'resnet17'", err)
        self.assertIn("resnet18", err)
        self.assertIn("vit_b_16", err)

    def test_missing_factory_file(self):
        self.assertIn("factory file 'nowhere/model.py' not found", self.run_tracer("nowhere/model.py:make"))

    def test_factory_that_raises_shows_its_traceback(self):
        err = self.run_tracer(f"{TINY}:raises")
        self.assertIn("raises() in", err)
        self.assertIn("Traceback", err)
        self.assertIn("ValueError: this factory always fails", err)

    def test_missing_factory_function(self):
        self.assertIn("has no function 'nothing'", self.run_tracer(f"{TINY}:nothing"))

    def test_input_shape_rejected(self):
        err = self.run_tracer("resnet18", "--input-shape", "5,32,32")
        self.assertIn("resnet18 rejected input of shape [1, 5, 32, 32]", err)

    def test_classification_models(self):
        names = classification_models()
        self.assertEqual(len(names), 80)
        self.assertIn("maxvit_t", names)
        self.assertNotIn("fasterrcnn_resnet50_fpn", names)
        with self.assertRaises(TraceError):
            trace("not_a_model", "unused.log", measure_rss=False)


if __name__ == "__main__":
    unittest.main()
