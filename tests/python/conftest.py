"""The Python package's tests (docs/python.md), run by ctest with Debian's python3 -m pytest:
MEMSIM names the CLI built beside the module, PYTHONPATH finds python/ and build/python/."""
import os
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MEMSIM = os.environ.get("MEMSIM", os.path.join(ROOT, "build", "memsim"))
SHARED = os.path.join(ROOT, "..", "shared")


def cli(*args, cwd=None):
    """`memsim ARGS...`: (exit code, stdout, stderr)."""
    done = subprocess.run([MEMSIM, *args], capture_output=True, text=True, cwd=cwd)
    return done.returncode, done.stdout, done.stderr


@pytest.fixture
def in_tmp(tmp_path, monkeypatch):
    """Runs the test in an empty folder (outputs land there)."""
    monkeypatch.chdir(tmp_path)
    return tmp_path
