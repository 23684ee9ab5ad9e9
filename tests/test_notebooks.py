"""The exploration notebooks run top to bottom (nbclient), so they never rot."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
TIMEOUT = 600  # seconds per cell: a cold numba cache compiles the engine first


@pytest.mark.parametrize(
    "name", ["century.ipynb", "analysis_tour.ipynb", "golems.ipynb", "golem_poker.ipynb", "golem.ipynb"]
)
def test_notebook_runs(name: str) -> None:
    notebook = nbformat.read(NOTEBOOKS / name, as_version=4)
    client = NotebookClient(
        notebook, timeout=TIMEOUT, kernel_name="python3", resources={"metadata": {"path": str(NOTEBOOKS)}}
    )
    client.execute()
    errors = [
        output
        for cell in notebook.cells
        if cell.cell_type == "code"
        for output in cell.get("outputs", [])
        if output.get("output_type") == "error"
    ]
    assert not errors
