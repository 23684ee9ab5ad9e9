"""The exploration notebooks: committed with their outputs and their prose agreeing with them, and they still run top
to bottom (nbclient), so they never rot. The mechanism is reports/notebook_text.py (measured figures are printed as
``name = value`` and the prose is rendered from them); ``python reports/regenerate.py notebooks/NAME`` regenerates one.
"""

from __future__ import annotations

import copy
import sys
from pathlib import Path

import nbformat
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "reports"))
import notebook_text  # noqa: E402

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
NAMES = ["century.ipynb", "analysis_tour.ipynb", "golems.ipynb", "golem_poker.ipynb", "golem.ipynb"]


def _read(name: str) -> nbformat.NotebookNode:
    return nbformat.read(NOTEBOOKS / name, as_version=4)


@pytest.mark.parametrize("name", NAMES)
def test_a_committed_notebook_has_outputs_and_its_text_agrees_with_them(name: str) -> None:
    notebook = _read(name)
    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    assert all(cell.get("execution_count") for cell in code), "every code cell was run: regenerate the notebook"
    assert len(notebook.metadata.get("golem", {}).get("commit", "")) == 40, "the commit it was regenerated from"
    assert not [o for c in code for o in c.outputs if o.output_type == "error"]
    assert notebook_text.problems(notebook) == []


def test_text_that_contradicts_the_outputs_is_caught() -> None:
    notebook = _read("century.ipynb")
    figures, _ = notebook_text.figures(notebook)
    assert "icc_margin" in figures
    edited = copy.deepcopy(notebook)
    cell = next(c for c in edited.cells if "{icc_margin}" in (notebook_text.template(c) or ""))
    cell.source = cell.source.replace(figures["icc_margin"], "1.00")  # prose edited by hand
    assert any("does not say what its outputs print" in p for p in notebook_text.problems(edited))

    edited = copy.deepcopy(notebook)
    for c in edited.cells:  # an output that now prints another value
        for o in c.get("outputs", []):
            if o.get("name") == "stdout" and "icc_margin = " in o.get("text", ""):
                o.text = o.text.replace(f"icc_margin = {figures['icc_margin']}", "icc_margin = 0.99")
    assert any("does not say what its outputs print" in p for p in notebook_text.problems(edited))

    edited = copy.deepcopy(notebook)
    edited.cells.append(nbformat.v4.new_markdown_cell("Seat 1 wins 40.2% of games, with an ICC of 0.38."))
    assert any("types the figure(s) ['40.2%', '0.38']" in p for p in notebook_text.problems(edited))
    edited.cells[-1].source = "Code is not prose: `epsilon=0.1` and a 95-point game."
    assert not any("types the figure" in p for p in notebook_text.problems(edited))


@pytest.mark.parametrize("name", NAMES)
def test_notebook_runs(name: str, tmp_path: Path) -> None:
    """Executed afresh: no cell fails and the text renders from the fresh outputs (their values may differ from the
    committed ones after a code change until the notebook is regenerated)."""
    out = notebook_text.execute(NOTEBOOKS / name, out=tmp_path / name)
    errors = [o for c in out.cells if c.cell_type == "code" for o in c.get("outputs", []) if o.output_type == "error"]
    assert not errors
    assert notebook_text.problems(out) == []
