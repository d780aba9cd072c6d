"""Ctrl-C during memsim.run: KeyboardInterrupt in Python, and the forked child gone."""
import os
import signal
import subprocess
import sys
import time

from conftest import ROOT

SCRIPT = """
import sys, memsim
print("running", flush=True)
try:
    memsim.run(sys.argv[1], out=sys.argv[2])
    print("finished")
except KeyboardInterrupt:
    print("KeyboardInterrupt")
"""


def children(pid):
    found = []
    for task in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{task}/children") as f:
            found += [int(c) for c in f.read().split()]
    return found


def test_python_api_ctrl_c_raises_keyboard_interrupt_and_stops_the_child(tmp_path):
    # A run long enough to be interrupted: 100000 operators swapped synchronously (the
    # hostile signal tests' scenario).
    scenario = tmp_path / "s.yaml"
    scenario.write_text("name: s\nworkload: {synthetic: uniform_linear, n: 100000}\n"
                        "platform: {memory: {budget_ratio: 0.9}}\npolicy: {swap: {mode: sync}}\n")
    python = subprocess.Popen([sys.executable, "-c", SCRIPT, str(scenario), str(tmp_path / "out")],
                              stdout=subprocess.PIPE, text=True, cwd=ROOT)
    assert python.stdout.readline() == "running\n"
    while not children(python.pid):  # the run's child is forked: interrupt it now
        assert python.poll() is None
        time.sleep(0.01)
    child = children(python.pid)[0]
    python.send_signal(signal.SIGINT)
    out, _ = python.communicate(timeout=600)
    assert out == "KeyboardInterrupt\n" and python.returncode == 0
    assert not os.path.exists(f"/proc/{child}") or open(f"/proc/{child}/stat").read().split()[2] == "Z"
