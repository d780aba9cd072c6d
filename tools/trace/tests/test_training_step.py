"""The training step the user wrote (a factory's own optimizer and step, --optimizer
adamw, --micro-batches, torch.utils.checkpoint), roles, the per-operator FLOPS, BYTES and
DTYPE, and a model printing to stdout and stderr (ctest runs these with Debian's
/usr/bin/python3). Counts use step_factories.Mlp: fc1 8x8 + 8, fc2 2x8 + 2, 90 parameters
(360 bytes), batch 2."""
import json
import os
import tempfile
import unittest

import torch

from tools.trace.models import TraceError
from tools.trace.op_costs import op_costs
from tools.trace.tests.log_replay import published_runtime_problems, replay
from tools.trace.tracer import trace

HERE = os.path.dirname(os.path.abspath(__file__))
STEPS = os.path.join(HERE, "step_factories.py")
PARAMETER_BYTES = 4 * 90


def traced(factory, **kwargs):
    """(sidecar, log lines) of a trace of step_factories.`factory` at batch 2."""
    with tempfile.TemporaryDirectory() as d:
        log = os.path.join(d, "t.log")
        options = dict(batch=2, repeat=1, measure_rss=False, log=lambda *_: None)
        options.update(kwargs)
        meta = trace(f"{STEPS}:{factory}", log, **options)
        with open(log) as f:
            lines = [json.loads(l) for l in f]
        assert replay(log)["peak_bytes"] == meta["tracer_peak_bytes"]
        assert published_runtime_problems(log) == []
    return meta, lines


def constant_bytes(lines, role):
    memory = {d["NAME"]: int(d["MEMORY"]) for d in lines if d["INSTRUCTION"] == "MEMORY"}
    return sum(memory[d["NAME"]] for d in lines if d["INSTRUCTION"] == "CONSTANT" and d["ROLE"] == role)


def operators(lines):
    return [d for d in lines if d["INSTRUCTION"] in ("CALL", "MUTATE")]


class Roles(unittest.TestCase):
    def test_constants_by_role(self):
        meta, lines = traced("plain", optimizer_name="adam")
        self.assertEqual(constant_bytes(lines, "parameter"), PARAMETER_BYTES)
        # Adam: exp_avg and exp_avg_sq per parameter, and a float32 step counter per parameter (4 of them).
        self.assertEqual(constant_bytes(lines, "optimizer_state"), 2 * PARAMETER_BYTES + 4 * 4)
        self.assertEqual(constant_bytes(lines, "input"), 2 * 8 * 4 + 2 * 8)  # x (float32) and labels (int64)

    def test_gradients_are_what_the_parameters_grad_hold(self):
        _, lines = traced("plain")
        memory = {d["NAME"]: int(d["MEMORY"]) for d in lines if d["INSTRUCTION"] == "MEMORY"}
        gradient_bytes = sum(memory[name] for d in operators(lines) if d["INSTRUCTION"] == "CALL"
                             for name, role in zip(d["RESULT"], d["ROLES"]) if role == "gradient")
        self.assertEqual(gradient_bytes, PARAMETER_BYTES)  # views of them take no memory
        backward = next(i for i, d in enumerate(lines) if d.get("ANNOTATION") == "BACKWARD")
        forward_roles = {r for d in lines[:backward] if d["INSTRUCTION"] == "CALL" for r in d["ROLES"]}
        self.assertEqual(forward_roles, {"activation", "parameter"})  # results, and views of fc1/fc2's weights


class FactoryOptimizer(unittest.TestCase):
    def test_adamw_by_flag_and_by_factory(self):
        for factory, name, label in (("plain", "adamw", "adamw"), ("own_adamw", None, "AdamW (the factory's)")):
            with self.subTest(factory=factory):
                meta, lines = traced(factory, optimizer_name=name)
                self.assertEqual(meta["optimizer"], label)
                self.assertEqual(constant_bytes(lines, "optimizer_state"), 2 * PARAMETER_BYTES + 4 * 4)
                # AdamW's decoupled weight decay: one mul_ on each of the 4 parameters.
                self.assertEqual(sum(1 for d in operators(lines) if d["NAME"] == "mul_" and
                                     d["ARGS"][0] in {"x2", "x3", "x4", "x5"}), 4)

    def test_own_step_function(self):
        meta, lines = traced("own_step")
        self.assertEqual(meta["optimizer"], "SGD (the factory's, with its step function)")
        names = [d["NAME"] for d in operators(lines)]
        self.assertEqual(names.count("norm"), 5)  # clip_grad_norm_: each gradient's norm, then the total's
        self.assertEqual(constant_bytes(lines, "optimizer_state"), PARAMETER_BYTES)  # momentum buffers

    def test_optimizer_flag_with_a_factory_optimizer_is_an_error(self):
        with self.assertRaises(TraceError) as e:
            traced("own_adamw", optimizer_name="sgd")
        self.assertIn("returns its own optimizer (AdamW), so --optimizer sgd has nothing to choose; leave --optimizer "
                      "out", str(e.exception))
        with self.assertRaises(TraceError) as e:
            traced("returns_a_string_optimizer")
        self.assertIn("returned an optimizer of type str; it must be a torch.optim.Optimizer", str(e.exception))


class MicroBatches(unittest.TestCase):
    def test_three_micro_batches_then_one_step(self):
        meta, lines = traced("plain", micro_batches=3)
        one, _ = traced("plain")
        annotations = [d["ANNOTATION"] for d in lines if d["INSTRUCTION"] == "ANNOTATE"]
        self.assertEqual(annotations, ["START"] + ["MICRO_BATCH", "BACKWARD"] * 3)
        self.assertEqual(meta["micro_batches"], 3)
        self.assertEqual(meta["forward_ops"], one["forward_ops"])  # the first micro-batch's forward
        names = [d["NAME"] for d in operators(lines)]
        self.assertEqual(names.count("nll_loss_forward"), 3)
        # One SGD step: an add_ per parameter after the last backward, besides the two
        # micro-batches' accumulations into the four gradients.
        self.assertEqual(sum(1 for d in operators(lines) if d["NAME"] == "add_" and
                             d["ARGS"][0] in {"x2", "x3", "x4", "x5"}), 4)
        self.assertEqual(names.count("add_"), 4 + 2 * 4)


class Checkpointing(unittest.TestCase):
    def test_the_re_run_forward_is_recorded_as_recomputation(self):
        meta, lines = traced("checkpointed")
        ops = operators(lines)
        rerun = [(i, d["NAME"], int(d["RECOMPUTES"])) for i, d in enumerate(ops) if "RECOMPUTES" in d]
        # Mlp.head (relu, fc2's t and addmm: forward ops 2, 3, 4) re-run in the backward.
        self.assertEqual([(name, k) for _, name, k in rerun], [("relu", 2), ("t", 3), ("addmm", 4)])
        self.assertEqual(meta["recomputed_ops"], 3)
        for i, name, k in rerun:
            self.assertGreater(i, meta["forward_ops"])
            self.assertEqual(ops[k]["NAME"], name)
        plain, _ = traced("plain")
        self.assertNotIn("recomputed_ops", plain)


class LiveModule(unittest.TestCase):
    def test_trace_module_writes_what_a_factory_trace_writes(self):
        from tools.trace.live import trace_module
        from tools.trace.tests.step_factories import own_adamw

        _, from_file = traced("own_adamw", micro_batches=2)
        model, inputs, labels, loss_fn, optimizer = own_adamw()
        lines, meta = trace_module(model, inputs, labels, loss_fn, optimizer=optimizer, micro_batches=2, repeat=1)
        untimed = lambda ds: [{k: v for k, v in d.items() if k != "TIME"} for d in ds]  # noqa: E731
        self.assertEqual(untimed(json.loads(l) for l in lines), untimed(from_file))
        self.assertEqual((meta["optimizer"], meta["micro_batches"], meta["batch"]), ("AdamW (given)", 2, 2))


class ModelOutput(unittest.TestCase):
    def test_a_model_printing_to_stdout_and_stderr_traces_with_the_resident_set_pass(self):
        meta, _ = traced("chatty", measure_rss=True)
        self.assertNotIn("error", meta["rss"])
        self.assertGreater(meta["rss"]["rss_high_water_bytes"], 0)

    def test_a_failure_in_the_resident_set_pass_names_the_pass_and_the_line(self):
        warnings = []
        meta, _ = traced("fails_in_rss_pass", measure_rss=True, log=warnings.append)
        with open(STEPS) as f:
            line = next(i for i, text in enumerate(f, 1) if "out of luck" in text)
        self.assertEqual(meta["rss"]["error"],
                         f"pass 6 of 6 (resident-set measurement of one untraced iteration, in its own process): "
                         f"{STEPS}:fails_in_rss_pass: raised RuntimeError: out of luck in the resident-set pass "
                         f"(at {STEPS}:{line})")
        self.assertIn(f"memsim trace: warning: no resident-set measurement: {meta['rss']['error']}", warnings)


class OperatorCosts(unittest.TestCase):
    """FLOPS, BYTES and DTYPE worked out by hand (tools/trace/op_costs.py)."""

    def costs(self, op, args, outputs, view=False):
        inputs = [a for a in args if isinstance(a, torch.Tensor)]
        return op_costs(op, args, inputs, outputs, view)

    def test_matrix_products(self):
        a, b, bias = torch.zeros(3, 4), torch.zeros(4, 5), torch.zeros(5)
        # 2 x 3·4·5 multiply-adds; (12 + 20 + 15) floats of 4 bytes.
        self.assertEqual(self.costs("mm", (a, b), [a @ b]), (120, 188, "float32"))
        # addmm: the bias is read (5 floats) but its addition is folded into the product.
        self.assertEqual(self.costs("addmm", (bias, a, b), [a @ b]), (120, 208, "float32"))
        q, k = torch.zeros(6, 16, 8, dtype=torch.bfloat16), torch.zeros(6, 8, 16, dtype=torch.bfloat16)
        # Attention scores Q·K^T: 6 heads x 16 x 8 x 16 multiply-adds; (768 + 768 + 1536) x 2 bytes.
        self.assertEqual(self.costs("bmm", (q, k), [q @ k]), (2 * 6 * 16 * 8 * 16, 6144, "bfloat16"))

    def test_convolution(self):
        x, w = torch.zeros(2, 3, 8, 8), torch.zeros(4, 3, 3, 3)
        y = torch.zeros(2, 4, 6, 6)  # 288 outputs, each 3·3·3 = 27 multiply-adds
        args = (x, w, None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1)
        self.assertEqual(self.costs("convolution", args, [y]), (2 * 288 * 27, (384 + 108 + 288) * 4, "float32"))
        # Backward for the input and the weight (not the bias): twice the forward's.
        grad_x, grad_w = torch.zeros_like(x), torch.zeros_like(w)
        back = (y, x, w, None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1, [True, True, False])
        self.assertEqual(self.costs("convolution_backward", back, [grad_x, grad_w])[0], 2 * 2 * 288 * 27)

    def test_element_wise_and_reductions_count_elements(self):
        x = torch.zeros(4, 8)
        # softmax: one per element; reads and writes 32 floats.
        self.assertEqual(self.costs("_softmax", (x, 1, False), [torch.zeros(4, 8)]), (32, 256, "float32"))
        # layer norm over 8: output 32, mean and rstd 4 each, weight and bias 8 each.
        w, b = torch.zeros(8), torch.zeros(8)
        outs = [torch.zeros(4, 8), torch.zeros(4, 1), torch.zeros(4, 1)]
        self.assertEqual(self.costs("native_layer_norm", (x, [8], w, b, 1e-5), outs), (32, (32 + 8 + 8 + 32 + 4 + 4) * 4,
                                                                                        "float32"))
        self.assertEqual(self.costs("sum", (x,), [torch.zeros(())]), (32, 132, "float32"))

    def test_views_and_allocations_cost_nothing(self):
        x = torch.zeros(4, 8)
        self.assertEqual(self.costs("view", (x, [32]), [x.view(32)], view=True), (0, 0, "float32"))
        self.assertEqual(self.costs("empty", ([4],), [torch.empty(4, dtype=torch.float16)]), (0, 0, "float16"))
        # A copy moves bytes but computes nothing; an integer gather names its result's dtype.
        self.assertEqual(self.costs("clone", (x,), [x.clone()]), (0, 256, "float32"))
        idx = torch.zeros(3, dtype=torch.long)
        self.assertEqual(self.costs("embedding", (x, idx), [torch.zeros(3, 8)]), (0, (32 + 24) * 4 + 24, "float32"))


if __name__ == "__main__":
    unittest.main()
