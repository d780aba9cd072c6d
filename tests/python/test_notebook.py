"""examples/memsim_tour.ipynb runs headless from top to bottom without an error (nbclient)."""
import importlib.util
import os

import pytest

from conftest import ROOT


def test_python_notebook_memsim_tour_executes_headless(tmp_path, monkeypatch):
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    if importlib.util.find_spec("torch") is None:  # the kernel imports it; this process need not (1.4 s of CPU)
        pytest.skip("torch is not installed")
    monkeypatch.setenv("TMPDIR", str(tmp_path))  # the tour's mkdtemp folder goes where pytest cleans up
    notebook = nbformat.read(os.path.join(ROOT, "examples", "memsim_tour.ipynb"), as_version=4)
    client = nbclient.NotebookClient(notebook, timeout=600, kernel_name="python3",
                                     resources={"metadata": {"path": os.path.join(ROOT, "examples")}})
    client.execute()  # raises CellExecutionError on the first cell that fails
    outputs = [o for cell in notebook.cells if cell.cell_type == "code" for o in cell.get("outputs", [])]
    assert not [o for o in outputs if o.output_type == "error"]
    html = [o["data"]["text/html"] for o in outputs if o.output_type == "execute_result" and "text/html" in o.get("data", {})]
    assert any("<iframe srcdoc=" in h for h in html)  # the Gantt chart, inline
    assert any("image/png" in o.get("data", {}) for o in outputs)  # the matplotlib figure
