"""Balance report of one or several runs: every answer the data supports, each with its uncertainty.

:func:`build_report` writes ``report.md`` with PNG plots beside it and ``report.html``, a single
self-contained page (plots embedded as base64 PNG, no external files, opens offline). Sections
appear only when the data support them: mirror matches for the first-player advantage, mixed
lineups for bot strength and rotated-seat advantage, replayed setups for setup variance, a
non-empty components table for component strength.

One module per section (``seats``, ``setups``, ``strategies``, ``components``, ``metrics``,
``variants``, ``outcomes``, ``convergence``), each computed from the statistics of ``analysis.stats``
and drawn with ``analysis.plots``; nothing here estimates anything itself. ``model`` holds the report
as data, ``provenance`` its header, ``build`` assembles it from runs, ``render`` writes it through the
Jinja2 templates of ``templates/`` (a change of wording or layout is an edit to one template), and
the watchable page of one replayed game (``render_replay``);
``experiment`` is the experiment report. Figures are drawn on ``matplotlib.figure.Figure`` objects
with the Agg canvas, so building a report never touches pyplot's state (safe inside Jupyter).
"""

from analysis.report.build import build_report, compute_report
from analysis.report.model import Figure, Report, Section, Table, Text
from analysis.report.render import render_html, render_markdown, render_replay, write_report

__all__ = [
    "Figure",
    "Report",
    "Section",
    "Table",
    "Text",
    "build_report",
    "compute_report",
    "render_html",
    "render_markdown",
    "render_replay",
    "write_report",
]
