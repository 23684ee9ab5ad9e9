"""The report's pages, from the Jinja2 templates in ``templates/``: Markdown with PNG files, and one HTML page.

The report model (:mod:`analysis.report.model`) is data; ``report.md.j2`` and ``report.html.j2`` lay it out
(``report.css`` is the HTML page's style sheet), so a change of wording or layout is an edit to one template.
HTML is autoescaped; Markdown table cells escape ``|``.
"""

from __future__ import annotations

import base64
from pathlib import Path

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape

from analysis.report.model import Figure, Report, Table

_TEMPLATES = Environment(
    loader=PackageLoader("analysis.report", "templates"),
    autoescape=select_autoescape(enabled_extensions=("html.j2",), default_for_string=False),
    keep_trailing_newline=True,
    undefined=StrictUndefined,
)
_TEMPLATES.filters["mdcell"] = lambda text: text.replace("|", "\\|").replace("\n", " ")
_TEMPLATES.filters["b64"] = lambda png: base64.b64encode(png).decode("ascii")
_TEMPLATES.tests["table"] = lambda item: isinstance(item, Table)
_TEMPLATES.tests["figure"] = lambda item: isinstance(item, Figure)


def _render(template: str, report: Report) -> str:
    return _TEMPLATES.get_template(template).render(report=report, findings=report.findings)


def render_markdown(report: Report) -> str:
    """The report as Markdown, with plots referenced as PNG files beside it (template ``report.md.j2``)."""
    return _render("report.md.j2", report).rstrip() + "\n"


def render_html(report: Report) -> str:
    """The report as one self-contained HTML page, plots inline as base64 PNG (template ``report.html.j2``)."""
    return _render("report.html.j2", report)


def write_report(report: Report, out_dir: str | Path) -> Path:
    """Write ``report.md``, its PNG plots and the self-contained ``report.html``; returns the HTML path.

    PNG files of an earlier report in ``out_dir`` are removed first, so no stale plot lingers.
    """
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    for old in out.glob("*.png"):
        old.unlink()
    for figure in report.figures:
        (out / figure.name).write_bytes(figure.png)
    (out / "report.md").write_text(render_markdown(report), encoding="utf-8")
    path = out / "report.html"
    path.write_text(render_html(report), encoding="utf-8")
    return path
