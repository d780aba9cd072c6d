"""memory_snapshot.pickle checked with Python's pickle and Debian torch's own _memory_viz,
the snapshot workload's round trip, a hand-made snapshot, and bad snapshots
(docs/torch_allocator.md). Run by ctest with /usr/bin/python3 (python3-torch); MEMSIM
names the memsim binary."""

import json
import os
import pickle
import subprocess
import tempfile
import unittest

import torch
from torch.cuda import _memory_viz

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MEMSIM = os.environ.get("MEMSIM", os.path.join(ROOT, "build", "memsim"))
LOG = os.path.join(ROOT, "examples", "traced", "resnet18_b2.log")
MiB = 1024 * 1024

# The fields docs/outputs.md lists for memory_snapshot.pickle.
SEGMENT_FIELDS = {"device", "address", "total_size", "allocated_size", "active_size", "requested_size", "stream",
                  "segment_type", "segment_pool_id", "is_expandable", "frames", "blocks"}
BLOCK_FIELDS = {"address", "size", "requested_size", "state", "frames"}
ENTRY_FIELDS = {"action", "addr", "size", "stream", "time_us", "frames"}
ACTIONS = {"alloc", "free_requested", "free_completed", "segment_alloc", "segment_free", "segment_map", "segment_unmap", "oom"}


def run(args, check=True):
    p = subprocess.run([MEMSIM] + args, capture_output=True, text=True, cwd=ROOT)
    if check and p.returncode != 0:
        raise AssertionError(f"memsim {' '.join(args)} exited {p.returncode}: {p.stderr}")
    return p


def simulate(workdir, name, workload, conf="", budget=None, extra_output=""):
    scenario = os.path.join(workdir, name + ".yaml")
    out = os.path.join(workdir, name)
    platform = f"platform: {{memory: {{budget: {budget}}}}}\n" if budget else ""
    with open(scenario, "w") as f:
        f.write(f"name: {name}\nworkload: {workload}\n{platform}"
                f"policy: {{allocator: torch_caching, torch_alloc_conf: '{conf}'}}\n"
                f"output: {{dir: {out}, torch_snapshot: true{extra_output}}}\n")
    run(["run", scenario])
    with open(os.path.join(out, "summary.json")) as f:
        summary = json.load(f)
    with open(os.path.join(out, "memory_snapshot.pickle"), "rb") as f:
        raw = f.read()
    return summary, raw, os.path.join(out, "memory_snapshot.pickle")


def replay_trace(snapshot):
    """Reserved and requested bytes over the trace: (peak reserved, peak requested, final reserved)."""
    reserved = requested = peak_reserved = peak_requested = 0
    live = {}
    for e in snapshot["device_traces"][0]:
        a = e["action"]
        if a in ("segment_alloc", "segment_map"):
            reserved += e["size"]
        elif a in ("segment_free", "segment_unmap"):
            reserved -= e["size"]
        elif a == "alloc":
            live[e["addr"]] = e["size"]
            requested += e["size"]
        elif a == "free_completed":
            requested -= live.pop(e["addr"])
        peak_reserved = max(peak_reserved, reserved)
        peak_requested = max(peak_requested, requested)
    return peak_reserved, peak_requested, reserved


def segment_events(snapshot):
    return [(e["action"], e["size"]) for e in snapshot["device_traces"][0] if e["action"].startswith("segment_")]


class SnapshotOut(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.summary, cls.raw, cls.path = simulate(cls.tmp.name, "resnet", f"{{dtr_log: {LOG}}}")
        cls.snapshot = pickle.loads(cls.raw)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_protocol_and_schema(self):
        self.assertEqual(self.raw[:2], b"\x80\x02")  # protocol 2: PyTorch's viewer reads up to 4
        s = self.snapshot
        self.assertEqual(set(s), {"segments", "device_traces", "allocator_settings"})
        self.assertEqual(len(s["device_traces"]), 1)
        self.assertGreater(len(s["segments"]), 0)
        for seg in s["segments"]:
            self.assertEqual(set(seg), SEGMENT_FIELDS)
            self.assertIn(seg["segment_type"], ("small", "large"))
            self.assertEqual(sum(b["size"] for b in seg["blocks"]), seg["total_size"])
            address = seg["address"]
            for b in seg["blocks"]:
                self.assertTrue(BLOCK_FIELDS <= set(b) <= BLOCK_FIELDS | {"history"})
                self.assertEqual(b["address"], address)
                address += b["size"]
                self.assertIn(b["state"], ("active_allocated", "inactive"))
        for e in s["device_traces"][0]:
            self.assertEqual(set(e), ENTRY_FIELDS)
            self.assertIn(e["action"], ACTIONS)
        # Frames name the operator: workload name, op index, op name.
        framed = [e for e in s["device_traces"][0] if e["frames"]]
        self.assertTrue(framed)
        self.assertEqual(set(framed[0]["frames"][0]), {"filename", "line", "name"})

    def test_trace_reproduces_the_summary(self):
        peak_reserved, peak_requested, final_reserved = replay_trace(self.snapshot)
        self.assertEqual(peak_reserved, self.summary["reserved_peak_bytes"])
        self.assertEqual(peak_reserved, self.summary["peak_bytes"])
        self.assertEqual(peak_requested, self.summary["live_peak_bytes"])
        self.assertEqual(final_reserved, sum(seg["total_size"] for seg in self.snapshot["segments"]))
        self.assertGreaterEqual(self.summary["reserved_peak_bytes"], self.summary["allocated_peak_bytes"])
        self.assertGreaterEqual(self.summary["allocated_peak_bytes"], self.summary["live_peak_bytes"])

    def test_torch_memory_viz_reads_it(self):
        print(f"torch {torch.__version__}")
        segments = self.snapshot["segments"]  # torch 1.13's functions take the segments list
        identity = lambda text: text  # the flame graph's input, without fetching flamegraph.pl
        lines = _memory_viz.segments(segments, format_flamegraph=identity).splitlines()
        self.assertEqual(len(lines), sum(len(seg["blocks"]) for seg in segments))
        self.assertTrue(all(line.startswith("stream_0;seg_") for line in lines))
        self.assertTrue(_memory_viz.memory(segments, format_flamegraph=identity))
        stats = _memory_viz.stats(segments)  # asserts each segment's blocks add up to it
        self.assertEqual(stats["segments"], len(segments))
        self.assertEqual(stats["total_size"].value, sum(seg["total_size"] for seg in segments))


class SnapshotIn(unittest.TestCase):
    def test_round_trip_reproduces_the_segments(self):
        with tempfile.TemporaryDirectory() as tmp:
            for conf in ("", "max_split_size_mb:21", "expandable_segments:True", "roundup_power2_divisions:4"):
                first, raw, path = simulate(tmp, "first", f"{{dtr_log: {LOG}}}", conf)
                second, raw2, _ = simulate(tmp, "second", f"{{torch_snapshot: {path}}}", conf)
                a, b = pickle.loads(raw), pickle.loads(raw2)
                self.assertEqual(segment_events(a), segment_events(b), conf)
                self.assertEqual(first["reserved_peak_bytes"], second["reserved_peak_bytes"], conf)
                self.assertEqual(first["allocated_peak_bytes"], second["allocated_peak_bytes"], conf)
                info = json.loads(run(["info", "--torch-snapshot", path, "--json"]).stdout)
                self.assertEqual(info["recorded_reserved_peak_bytes"], first["reserved_peak_bytes"], conf)
                self.assertEqual(info["replayed_peak_bytes"]["torch_caching"], first["reserved_peak_bytes"], conf)
                self.assertEqual(info["replayed_peak_bytes"]["os"], first["live_peak_bytes"], conf)
                self.assertTrue(info["replayed_segments_match_recorded"], conf)

    def test_hand_made_snapshot(self):
        # As torch's _dump_snapshot writes it (pickle protocol 4): a 1000-byte tensor in a new
        # 2 MiB small segment, a 5 MiB one in a new 20 MiB large segment, both freed, then
        # 3 MiB served from the cached 20 MiB segment. Addresses and times as a GPU gives them.
        A, B = 0x7F1200000000, 0x7F1200200000
        def e(action, addr, size, t):
            return {"action": action, "addr": addr, "size": size, "stream": 0, "time_us": t, "frames": [],
                    "compile_context": "N/A", "user_metadata": ""}
        trace = [e("segment_alloc", A, 2 * MiB, 10), e("alloc", A, 1000, 11),
                 e("segment_alloc", B, 20 * MiB, 20), e("alloc", B, 5 * MiB, 21),
                 e("free_requested", A, 1000, 30), e("free_completed", A, 1000, 30),
                 e("free_requested", B, 5 * MiB, 40), e("free_completed", B, 5 * MiB, 40),
                 e("alloc", B, 3 * MiB, 50)]
        blk = lambda addr, size, req, state: {"address": addr, "size": size, "requested_size": req, "state": state, "frames": []}
        seg = lambda addr, size, kind, blocks: {"device": 0, "address": addr, "total_size": size, "allocated_size": 0,
                                                "active_size": 0, "requested_size": 0, "stream": 0, "segment_type": kind,
                                                "segment_pool_id": (0, 0), "is_expandable": False, "frames": [], "blocks": blocks}
        snapshot = {"segments": [seg(A, 2 * MiB, "small", [blk(A, 2 * MiB, 0, "inactive")]),
                                 seg(B, 20 * MiB, "large", [blk(B, 3 * MiB, 3 * MiB, "active_allocated"),
                                                             blk(B + 3 * MiB, 17 * MiB, 0, "inactive")])],
                    "device_traces": [trace], "allocator_settings": {"PYTORCH_CUDA_ALLOC_CONF": ""},
                    "external_annotations": []}
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "hand.pickle")
            with open(path, "wb") as f:
                pickle.dump(snapshot, f, protocol=4)
            info = json.loads(run(["info", "--torch-snapshot", path, "--json"]).stdout)
            self.assertEqual(info["ops"], 3)
            self.assertEqual(info["recorded_reserved_peak_bytes"], 22 * MiB)
            self.assertEqual(info["recorded_requested_peak_bytes"], 1000 + 5 * MiB)
            self.assertEqual(info["replayed_peak_bytes"]["os"], 1000 + 5 * MiB)
            self.assertEqual(info["replayed_peak_bytes"]["torch_caching"], 22 * MiB)
            self.assertTrue(info["replayed_segments_match_recorded"])
            # expandable segments: one 20 MiB page of the large pool holds 5 MiB, then 3 MiB;
            # the small pool maps its own 2 MiB page.
            info = json.loads(run(["info", "--torch-snapshot", path, "--torch-alloc-conf", "expandable_segments:True",
                                   "--json"]).stdout)
            self.assertEqual(info["replayed_peak_bytes"]["torch_caching"], 22 * MiB)
            self.assertFalse(info["replayed_segments_match_recorded"])  # segment_map, not segment_alloc


class LargeSnapshots(unittest.TestCase):
    def test_info_of_many_allocations_leaves_the_static_planners_out_and_says_why(self):
        # Hostile input, fourth round, class 7: 20,001 allocations of 512 B, each freed before
        # the next, every one referring to one shared stack of 8 frames (as PyTorch's memo
        # does). The online allocators are replayed; the quadratic static planners are not.
        n, A = 20001, 0x7F1200000000
        frames = [{"filename": "/x/module.py", "line": 10 + i, "name": "forward"} for i in range(8)]
        trace = [{"action": "segment_alloc", "addr": A, "size": 2 * MiB, "stream": 0, "time_us": 0, "frames": frames}]
        for i in range(n):
            trace.append({"action": "alloc", "addr": A, "size": 512, "stream": 0, "time_us": 10 * i + 1, "frames": frames})
            trace.append({"action": "free_requested", "addr": A, "size": 512, "stream": 0, "time_us": 10 * i + 2, "frames": frames})
            trace.append({"action": "free_completed", "addr": A, "size": 512, "stream": 0, "time_us": 10 * i + 3, "frames": frames})
        snapshot = {"segments": [{"device": 0, "address": A, "total_size": 2 * MiB, "allocated_size": 0, "active_size": 0,
                                  "requested_size": 0, "stream": 0, "segment_type": "small", "segment_pool_id": (0, 0),
                                  "is_expandable": False, "frames": frames,
                                  "blocks": [{"address": A, "size": 2 * MiB, "requested_size": 0, "state": "inactive",
                                              "frames": frames}]}],
                    "device_traces": [trace], "allocator_settings": {"PYTORCH_CUDA_ALLOC_CONF": ""}}
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "many.pickle")
            with open(path, "wb") as f:
                pickle.dump(snapshot, f, protocol=4)
            info = json.loads(run(["info", "--torch-snapshot", path, "--json"]).stdout)
            self.assertEqual(info["ops"], n)
            self.assertEqual(info["recorded_requested_peak_bytes"], 512)
            self.assertEqual(info["replayed_peak_bytes"]["os"], 512)
            self.assertEqual(info["replayed_peak_bytes"]["torch_caching"], 2 * MiB)
            planners = [k for k in info["replayed_peak_bytes"] if k.startswith("planner:")]
            self.assertTrue(planners)
            for k in planners:
                self.assertIsNone(info["replayed_peak_bytes"][k], k)
            self.assertEqual(info["replayed_peak_skipped"],
                             "the static planners: 20001 tensors, above the 20000 they are replayed for here (their "
                             "placement is quadratic in tensors; run one with policy.allocator)")


class BadSnapshots(unittest.TestCase):
    def check_refused(self, content, *expected):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "bad.pickle")
            with open(path, "wb") as f:
                f.write(content)
            p = run(["info", "--torch-snapshot", path], check=False)
            self.assertEqual(p.returncode, 1, p.stderr)
            self.assertIn(path, p.stderr)
            for text in expected:
                self.assertIn(text, p.stderr)
            self.assertNotIn("Traceback", p.stderr)
            return tmp

    def test_executable_objects_are_refused_not_run(self):
        marker = os.path.join(tempfile.gettempdir(), "memsim_pickle_was_run")
        if os.path.exists(marker):
            os.remove(marker)

        class Payload:
            def __reduce__(self):
                return (os.system, (f"touch {marker}",))
        for protocol in (0, 2, 4, 5):
            raw = pickle.dumps({"segments": [], "device_traces": [[Payload()]]}, protocol=protocol)
            self.check_refused(raw, "the pickle refers to the Python object", "system", "never imports or runs")
        self.assertFalse(os.path.exists(marker))
        # A tensor (REDUCE of torch._utils._rebuild_tensor_v2) names its class too.
        self.check_refused(pickle.dumps({"segments": torch.zeros(2)}, protocol=2), "torch._utils")
        # A set is not plain data for this reader.
        self.check_refused(pickle.dumps({"segments": {1, 2}}, protocol=4), "a set")

    def test_not_a_snapshot(self):
        self.check_refused(b'{"segments": []}', "not a pickle: it starts with byte 0x7b ('{')")
        self.check_refused(pickle.dumps([{"address": 0, "total_size": 0, "blocks": []}], protocol=2),
                           "torch 1.13's snapshot", "no trace")
        self.check_refused(pickle.dumps({"segments": [], "device_traces": [[{"action": "alloc", "addr": 1, "size": 2,
                                                                               "stream": 0, "colour": "red"}]]}, protocol=4),
                           "device_traces[0][0]: not a PyTorch memory snapshot: unknown field 'colour'")
        self.check_refused(pickle.dumps({"segments": [], "device_traces": [[{"action": "resize", "addr": 1, "size": 2,
                                                                               "stream": 0}]]}, protocol=4),
                           "unknown action 'resize'")
        self.check_refused(pickle.dumps({"segments": [], "device_traces": []}, protocol=4), "no trace of allocations")

    def test_truncated(self):
        with tempfile.TemporaryDirectory() as tmp:
            _, raw, _ = simulate(tmp, "whole", f"{{dtr_log: {LOG}}}")
        for cut in (1, 2, len(raw) // 3, len(raw) - 1):
            self.check_refused(raw[:cut], "truncated")


if __name__ == "__main__":
    unittest.main(verbosity=2)
