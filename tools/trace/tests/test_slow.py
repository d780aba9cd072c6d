"""Slow tests (ctest label `slow`): every model of docs/tracing.md traces, and the shipped
logs examples/traced/*.log are what `memsim trace` writes today, all but the times."""
import json
import os
import subprocess
import tempfile
import unittest

from tools.trace.tests.log_replay import published_runtime_problems, replay

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
MEMSIM = os.environ.get("MEMSIM", os.path.join(REPO, "build", "memsim"))
TRACED = os.path.join(REPO, "examples", "traced")
# Each shipped log with the command line that wrote it.
SHIPPED_LOGS = [
    ("resnet18_b2.log", ["resnet18", "--batch", "2"]),
    ("mobilenet_v2_b8.log", ["mobilenet_v2", "--batch", "8", "--input-shape", "3,96,96"]),
    ("gpt_b8.log", ["tools/trace/examples/gpt.py:gpt", "--batch", "8"]),
]
EXAMPLE = os.path.join(REPO, "tools", "trace", "examples", "language_models.py")

# Item 4's models at batch 1 and small images (a ViT is built for the given size), so
# that the whole list traces in a few minutes on 2 cores.
MODELS = [
    ("resnet18", 1, (3, 64, 64)), ("resnet50", 1, (3, 64, 64)), ("mobilenet_v2", 1, (3, 64, 64)),
    ("mobilenet_v3_small", 1, (3, 64, 64)), ("squeezenet1_0", 1, (3, 64, 64)), ("densenet121", 1, (3, 64, 64)),
    ("efficientnet_b0", 1, (3, 64, 64)), ("vit_b_16", 1, (3, 64, 64)), (f"{EXAMPLE}:lstm_lm", 2, (16,)),
    (f"{EXAMPLE}:transformer_encoder", 2, (16,)), (os.path.join(REPO, "tools", "trace", "examples", "gpt.py:gpt"), 2, (32,)),
]

# Sidecar fields that describe the machine, the moment or the measured times.
UNPINNED = {"cpu_model", "date_utc", "op_time_sum_ns", "untraced_iteration_ns", "untraced_iterations_ns", "rss",
            "tracing_seconds", "threads", "repeat", "python", "upgraded"}


def without_times(path):
    with open(path) as f:
        return [{k: v for k, v in json.loads(l).items() if k != "TIME"} for l in f]


class EveryModelTraces(unittest.TestCase):
    def test_every_model(self):
        # Imported here: ctest runs each class in a process of its own, and
        # ShippedLogIsPinned traces through `memsim trace` only (importing torch: 1.4 s of CPU).
        from tools.trace.tracer import trace

        with tempfile.TemporaryDirectory() as d:
            for spec, batch, shape in MODELS:
                with self.subTest(model=spec):
                    log = os.path.join(d, "m.log")
                    meta = trace(spec, log, batch=batch, input_shape=shape, repeat=1, measure_rss=False,
                                 log=lambda *_: None)
                    self.assertGreater(meta["ops"], 0)
                    self.assertGreater(meta["constants"], 0)
                    self.assertEqual(replay(log)["peak_bytes"], meta["tracer_peak_bytes"])
                    self.assertEqual(published_runtime_problems(log), [])


class ShippedLogIsPinned(unittest.TestCase):
    def test_retrace_matches_all_but_times(self):
        for name, args in SHIPPED_LOGS:
            with self.subTest(log=name):
                shipped = os.path.join(TRACED, name)
                with open(shipped + ".meta.json") as f:
                    shipped_meta = json.load(f)
                with tempfile.TemporaryDirectory() as d:
                    log = os.path.join(d, name)
                    done = subprocess.run([MEMSIM, "trace", *args, "--repeat", "1", "--no-rss", "-q", "--out", log],
                                          cwd=REPO, capture_output=True, text=True)
                    self.assertEqual(done.returncode, 0, done.stderr)
                    self.assertEqual(without_times(log), without_times(shipped))
                    with open(log + ".meta.json") as f:
                        meta = json.load(f)
                self.assertEqual({k: v for k, v in meta.items() if k not in UNPINNED},
                                 {k: v for k, v in shipped_meta.items() if k not in UNPINNED})


if __name__ == "__main__":
    unittest.main()
