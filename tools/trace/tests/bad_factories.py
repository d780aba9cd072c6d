"""Factories that fail in each way test_tracer.py and test_memsim_replay.py check: each
must end `memsim trace` with one clear line, exit status 1 and nothing written (but
starts_setsid_child, whose trace succeeds: memsim must end the process it leaves)."""
import os
import sys
import time

import torch
from torch import nn


def _linear(batch):
    return nn.Linear(4, 2), (torch.randn(batch, 4),), torch.zeros(batch, dtype=torch.long), nn.functional.cross_entropy


def exits_0(batch=1):
    sys.exit(0)


def exits_3(batch=1):
    sys.exit(3)


def os_exits_0(batch=1):
    os._exit(0)  # no Python cleanup, no message: only memsim can tell


def os_exits_3(batch=1):
    os._exit(3)


def exits_in_forward(batch=1):
    class Quits(nn.Linear):
        calls = 0

        def forward(self, x):
            Quits.calls += 1
            if Quits.calls > 1:  # after the warm-up iteration
                sys.exit(0)
            return super().forward(x)

    _, inputs, labels, loss = _linear(batch)
    return Quits(4, 2), inputs, labels, loss


def never_returns(batch=1):
    while True:
        time.sleep(0.1)


def no_parameters(batch=1):
    return nn.ReLU(), (torch.randn(batch, 4, requires_grad=True),), torch.zeros(batch, dtype=torch.long), \
        lambda out, labels: out.sum()


def frozen(batch=1):
    model, inputs, labels, loss = _linear(batch)
    for p in model.parameters():
        p.requires_grad_(False)
    return model, inputs, labels, loss


def not_a_module(batch=1):
    return (lambda x: x), (torch.randn(batch, 4),), torch.zeros(batch), lambda out, labels: out.sum()


def loss_not_callable(batch=1):
    model, inputs, labels, _ = _linear(batch)
    return model, inputs, labels, "cross_entropy"


def vector_loss(batch=2):
    model, inputs, labels, _ = _linear(batch)
    return model, inputs, labels, lambda out, labels: out  # backward() needs a scalar


def _report_fd():
    """The fd `memsim trace` reads the tracer's report on (its --report-fd)."""
    return int(sys.argv[sys.argv.index("--report-fd") + 1])


def forges_ok(batch=1):
    os.write(_report_fd(), b"ok\n")  # what the tracer writes once the log is complete
    os._exit(0)


def floods_report(batch=1):
    """Writes 8 MiB on the tracer's report pipe (memsim must read it without keeping it)."""
    chunk = b"x" * 65536
    for _ in range(128):
        os.write(_report_fd(), chunk)
    os._exit(0)


def starts_setsid_child(batch=1):
    """A model that leaves a process in a session of its own (out of reach of a group
    kill), its pid in $MEMSIM_TEST_PID_FILE; the trace itself succeeds."""
    import subprocess

    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"], start_new_session=True)
    with open(os.environ["MEMSIM_TEST_PID_FILE"], "w") as f:
        f.write(str(child.pid))
    return _linear(batch)
