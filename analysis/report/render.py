"""The report's pages, from the Jinja2 templates in ``templates/``: Markdown with PNG files, and one HTML page.

The report model (:mod:`analysis.report.model`) is data; ``report.md.j2`` and ``report.html.j2`` lay it out
(``report.css`` is the HTML page's style sheet), so a change of wording or layout is an edit to one template.
HTML is autoescaped; Markdown table cells escape ``|``.
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape
from markupsafe import Markup

from analysis.report.model import GAMES_DIR, Figure, Report, Table, Watch

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
_TEMPLATES.tests["watch"] = lambda item: isinstance(item, Watch)
_TEMPLATES.policies["json.dumps_kwargs"] = {"sort_keys": False}  # replay states keep their documented field order


def _render(template: str, report: Report) -> str:
    return _TEMPLATES.get_template(template).render(report=report, findings=report.findings)


def render_markdown(report: Report) -> str:
    """The report as Markdown, with plots referenced as PNG files beside it (template ``report.md.j2``)."""
    return _render("report.md.j2", report).rstrip() + "\n"


def render_html(report: Report) -> str:
    """The report as one self-contained HTML page, plots inline as base64 PNG (template ``report.html.j2``)."""
    return _render("report.html.j2", report)


def render_replay(view: dict[str, Any], title: str, subtitle: str) -> str:
    """One self-contained HTML page stepping through a replayed game (template ``replay.html.j2``): ``view`` is a
    game's ``replay_view`` (``simulate.viewkit``), embedded as JSON and drawn by the inline script, no network."""
    data = json.dumps(view, separators=(",", ":"))
    for ch in "<>&'":  # as Jinja's ``tojson``: safe inside a script element
        data = data.replace(ch, f"\\u{ord(ch):04x}")
    return _TEMPLATES.get_template("replay.html.j2").render(data=Markup(data), title=title, subtitle=subtitle)


def write_report(report: Report, out_dir: str | Path, pages: Mapping[str, str] | None = None) -> Path:
    """Write ``report.md``, its PNG plots and the self-contained ``report.html``; returns the HTML path. ``pages``
    are the replay pages of the games the report names (``{href: html}``, href ``games/NAME.html``), written with it.

    The files are written into a hidden folder inside ``out_dir`` and moved into place once all are
    written, and PNG files and replay pages of an earlier report are removed then, so no stale plot or page lingers.
    A write that fails (a full disk) leaves no part of the new report and an earlier one as it was, and raises an
    ``OSError`` whose message names ``out_dir``.
    """
    out = Path(out_dir)
    created = not out.exists()
    staging = None
    try:
        out.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=".report-", dir=out))
        for figure in report.figures:
            (staging / figure.name).write_bytes(figure.png)
        for href, html in (pages or {}).items():
            (staging / href).parent.mkdir(exist_ok=True)
            (staging / href).write_text(html, encoding="utf-8")
        (staging / "report.md").write_text(render_markdown(report), encoding="utf-8")
        (staging / "report.html").write_text(render_html(report), encoding="utf-8")
        if report.evidence:
            (staging / "report.json").write_text(json.dumps(report.evidence, indent=1) + "\n", encoding="utf-8")
    except OSError as e:
        if staging is not None:
            shutil.rmtree(staging, ignore_errors=True)
        if created:
            shutil.rmtree(out, ignore_errors=True)
        raise OSError(f"cannot write the report to {out}: {e.strerror or e}") from None
    for old in [*out.glob("*.png"), *out.glob("report.json")]:
        old.unlink()
    if (out / GAMES_DIR).is_dir():
        shutil.rmtree(out / GAMES_DIR)
    for new in staging.iterdir():
        os.replace(new, out / new.name)
    staging.rmdir()
    return out / "report.html"
