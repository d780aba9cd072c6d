"""memsim.trace of a live module equals `memsim trace` of the same factory (times aside)."""
import json
import os
import re

import pytest

import memsim
from conftest import cli

HERE = os.path.dirname(os.path.abspath(__file__))


def without_times(path):
    # TIME is each operator's measured median: the one field two traces cannot share.
    with open(path) as f:
        return [re.sub(r',"TIME":"\d+"', "", line) for line in f]


def test_python_trace_of_a_live_module_equals_memsim_trace_of_its_factory(in_tmp):
    pytest.importorskip("torch")
    from tiny_factory import factory

    code, _, err = cli("trace", os.path.join(HERE, "tiny_factory.py") + ":factory", "--out", "cli.log", "--no-rss",
                       "--batch", "2", "--repeat", "1", "--quiet", "--optimizer", "sgd")
    assert code == 0, err
    model, inputs, labels, loss_fn = factory()
    w = memsim.trace(model, inputs, labels, loss_fn, optimizer="sgd", repeat=1)
    assert without_times(w.path) == without_times("cli.log")
    assert any('"TIME"' in line for line in open(w.path))
    cli_meta = json.load(open("cli.log.meta.json"))
    for key in ("ops", "mutates", "forward_ops", "constants", "constant_bytes", "batch", "optimizer"):
        assert w.meta[key] == cli_meta[key], key
    assert w.meta["ops"] > 5

    # The traced workload is a scenario's workload as it is, and saved it is a log file.
    r = memsim.run({"name": "tiny", "workload": w}, out="run")
    assert r.ok and r.summary["ops"] == w.meta["ops"]
    saved = w.save("kept/tiny.log")
    assert open("kept/tiny.log").read() == open(w.path).read() and os.path.exists("kept/tiny.log.meta.json")
    assert memsim.run({"name": "tiny", "workload": {"dtr_log": "kept/tiny.log"}}, out="run2").summary["ops"] == saved.ops


def test_python_trace_refuses_what_it_cannot_trace():
    pytest.importorskip("torch")
    from tiny_factory import factory

    model, inputs, labels, loss_fn = factory()
    with pytest.raises(memsim.UsageError) as e:
        memsim.trace("resnet18", inputs, labels, loss_fn)
    assert str(e.value) == "model: expected a torch.nn.Module, got a str"
    with pytest.raises(memsim.UsageError) as e:
        memsim.trace(model, inputs, labels, loss_fn, optimizer="lamb")
    assert str(e.value) == "optimizer: 'lamb' is not one of sgd, adam, adamw, none (or give a torch.optim.Optimizer)"
    with pytest.raises(memsim.TraceError) as e:
        memsim.trace(model, inputs[:, :2], labels, loss_fn, repeat=1)
    assert "rejected input of shape [2, 2, 8, 8]" in str(e.value)
