"""The report model: a report is data (texts, tables, figures in sections); the page is a template."""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure as MplFigure

DPI = 80
"""Resolution of the report's PNG plots (kept low: the HTML embeds every plot)."""


@dataclass
class Text:
    """A paragraph; ``kind`` is ``"p"``, ``"verdict"`` (a plain-language answer), ``"warn"`` or ``"code"``."""

    text: str
    kind: str = "p"


@dataclass
class Table:
    """A small table of already formatted cells."""

    columns: list[str]
    rows: list[list[str]]
    caption: str = ""


@dataclass
class Figure:
    """A plot rendered to PNG bytes; written as ``name`` beside ``report.md``."""

    name: str
    png: bytes
    caption: str = ""


@dataclass
class Section:
    """A numbered section of the report."""

    title: str
    items: list[Text | Table | Figure] = field(default_factory=list)
    findings: list[str] = field(default_factory=list)
    """Sentences repeated in the report's key findings."""


@dataclass
class Report:
    """A computed report: header (runs, provenance, warnings) and sections, ready to render."""

    title: str
    header: list[Text | Table]
    sections: list[Section]

    @property
    def figures(self) -> list[Figure]:
        return [item for s in self.sections for item in s.items if isinstance(item, Figure)]


def _render(fig: MplFigure) -> bytes:
    buf = io.BytesIO()
    FigureCanvasAgg(fig)
    fig.savefig(buf, format="png", dpi=DPI)
    return buf.getvalue()


def _figure(name: str, caption: str, panels: Sequence[Callable], ncols: int = 1, size=(6.5, 4.0)) -> Figure:
    """Draw ``panels`` (callables taking an Axes) on one figure and render it."""
    nrows = -(-len(panels) // ncols)
    fig = MplFigure(figsize=(size[0] * ncols, size[1] * nrows), layout="constrained")
    axes = fig.subplots(nrows, ncols, squeeze=False).ravel()
    for draw, ax in zip(panels, axes, strict=False):
        draw(ax)
    for ax in axes[len(panels) :]:
        ax.set_visible(False)
    return Figure(name, _render(fig), caption)
