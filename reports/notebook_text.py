"""The exploration notebooks, committed with their outputs, and their prose checked against those outputs.

A figure a notebook measures is never typed into its prose. A code cell prints it as a line ``name = value``
(``print(f"icc_margin = {icc:.2f}")``), and a markdown cell that states it keeps a template in its metadata
(``metadata.golem.template``, with ``{name}`` fields) from which its text is rendered with the figures the
notebook's outputs print. :func:`execute` runs a notebook top to bottom (nbclient), renders its templates and
records the commit; :func:`problems` lists where the text and the outputs disagree: a markdown cell whose text is not
its template filled with the printed figures, a template naming a figure no output prints, a figure printed twice
with two values, or a decimal or percentage in prose that is not rendered from a template (a typed figure, which
nothing keeps true). Numbers in code spans are code, not figures.

Outputs are kept small: a DataFrame's HTML is dropped where its plain text is there too, and execution
timestamps are not kept.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import nbformat
from nbclient import NotebookClient

TIMEOUT = 600
"""Seconds per cell: a cold numba cache compiles the engine first."""

FIGURE = re.compile(r"^([a-z][a-z0-9_]*) = (\S.*?)\s*$", re.MULTILINE)
"""A printed figure: a whole output line ``name = value``."""

_TYPED = re.compile(r"(?<![\w.])[-+]?\d+(?:,\d{3})*(?:\.\d+)?\s?%|(?<![\w.])[-+]?\d+\.\d+(?!\w|\.\d)")
"""A decimal or a percentage in prose."""

_CODE = re.compile(r"```.*?```|`[^`\n]*`", re.DOTALL)


def figures(notebook: Any) -> tuple[dict[str, str], list[str]]:
    """The figures a notebook's stored outputs print (``name = value`` lines), and a problem per name printed with
    two different values."""
    found: dict[str, str] = {}
    clashes = []
    for cell in notebook.cells:
        if cell.cell_type != "code":
            continue
        for output in cell.get("outputs", []):
            if output.get("output_type") != "stream" or output.get("name") != "stdout":
                continue
            for name, value in FIGURE.findall(output.get("text", "")):
                if found.get(name, value) != value:
                    clashes.append(f"figure {name} is printed as {found[name]} and as {value}")
                found[name] = value
    return found, clashes


def template(cell: Any) -> str | None:
    """A markdown cell's template (``metadata.golem.template``), or None."""
    return cell.get("metadata", {}).get("golem", {}).get("template")


def render(text: str, values: dict[str, str]) -> str:
    """``text`` with each ``{name}`` replaced by the printed figure; KeyError naming a figure no output prints."""
    return re.sub(r"\{([a-z][a-z0-9_]*)\}", lambda m: values[m.group(1)], text)


def problems(notebook: Any) -> list[str]:
    """Where a notebook's prose and its outputs disagree (empty when they agree); see the module docstring."""
    values, found = figures(notebook)
    for k, cell in enumerate(notebook.cells):
        if cell.cell_type != "markdown":
            continue
        text = template(cell)
        if text is None:
            typed = _TYPED.findall(_CODE.sub("", cell.source))
            if typed:
                found.append(f"markdown cell {k} types the figure(s) {typed} instead of rendering them from a template")
            continue
        try:
            rendered = render(text, values)
        except KeyError as e:
            found.append(f"markdown cell {k} names the figure {e.args[0]}, which no output prints")
            continue
        if rendered != cell.source:
            found.append(f"markdown cell {k} does not say what its outputs print: expected {rendered!r}")
    return found


def fill(notebook: Any) -> None:
    """Render every templated markdown cell from the notebook's printed figures (KeyError: a figure not printed)."""
    values, clashes = figures(notebook)
    if clashes:
        raise ValueError(clashes[0])
    for cell in notebook.cells:
        text = template(cell)
        if cell.cell_type == "markdown" and text is not None:
            cell.source = render(text, values)


def _slim(notebook: Any) -> None:
    """Drop what makes outputs big or noisy: HTML beside plain text, execution timestamps."""
    for cell in notebook.cells:
        cell.get("metadata", {}).pop("execution", None)
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            if "text/html" in data and "text/plain" in data:
                del data["text/html"]


def execute(path: Path, commit: str | None = None, out: Path | None = None) -> Any:
    """Run notebook ``path`` top to bottom in its folder, render its text from its outputs, keep the outputs small,
    record ``commit`` in ``metadata.golem.commit`` and write it to ``out`` (default: in place). Returns the notebook;
    ``nbclient``'s ``CellExecutionError`` if a cell fails."""
    notebook = nbformat.read(path, as_version=4)
    NotebookClient(
        notebook, timeout=TIMEOUT, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}
    ).execute()
    fill(notebook)
    _slim(notebook)
    if commit is not None:
        notebook.metadata.setdefault("golem", {})["commit"] = commit
    nbformat.write(notebook, out or path)
    return notebook
