"""The report model: a report is data (texts, tables, figures in sections); the page is a template."""

from __future__ import annotations

import io
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure as MplFigure

from analysis.report.format import people_words
from simulate.manifest import RunManifest

DPI = 80
"""Resolution of the report's PNG plots (kept low: the HTML embeds every plot)."""

GAMES_DIR = "games"
"""The folder of a report's replay pages, beside ``report.html``."""
MAX_ANSWERS = 6
"""At most this many answers in a report's summary: it must fit the first screen."""


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
class GamePage:
    """A game the report names, to be watched on its replay page ``href`` (relative to the report).

    The command that writes the report with its pages (``golem report``, ``golem study``) replays the game and
    sets ``written``; a report built without them names the ``golem replay`` command instead.
    """

    href: str
    title: str
    why: str
    run_path: str
    run_id: str
    game: int
    written: bool = False

    @property
    def command(self) -> str:
        """The command that writes this page by hand."""
        return f"golem replay {self.run_path} --game {self.game} --html {self.href.rsplit('/', 1)[-1]}"


def game_page(
    href: str, title: str, why: str, game: int, runs: Sequence[RunManifest | dict[str, Any]], offsets: dict[str, int]
) -> GamePage:
    """The page of the game with report-wide id ``game`` (a run's offset plus its index in the run)."""
    typed = [RunManifest.of(m) for m in runs]
    run = max((m for m in typed if offsets[m.run_id] <= game), key=lambda m: offsets[m.run_id])
    return GamePage(href, title, why, run.path, run.run_id, game - offsets[run.run_id])


@dataclass
class Watch:
    """A paragraph naming a game to watch: a link to its replay page, or the command that writes it."""

    page: GamePage


@dataclass
class Section:
    """A numbered section of the report."""

    title: str
    items: list[Text | Table | Figure | Watch] = field(default_factory=list)
    findings: list[str] = field(default_factory=list)
    """Sentences repeated in the report's findings, section by section."""
    answers: list[str] = field(default_factory=list)
    """Plain-word answers to a designer's question, offered to the report's summary (first screen)."""


@dataclass
class Report:
    """A computed report, ready to render.

    The first screen holds the ``summary`` (three to six plain-word answers), the ``overview`` figure and the
    ``caution`` line (empty when nothing needs one); then the sections; the ``appendix`` (provenance: runs, rules,
    data, commands) comes last.
    """

    title: str
    appendix: list[Text | Table]
    sections: list[Section]
    summary: list[str] = field(default_factory=list)
    overview: Figure | None = None
    caution: str = ""
    evidence: dict[str, Any] = field(default_factory=dict)
    """What the report was computed from (``analysis.report.provenance.evidence_record``), written as
    ``report.json``; empty: none is written."""

    @property
    def figures(self) -> list[Figure]:
        """Every figure of the report, the overview first, each once."""
        out = [self.overview] if self.overview is not None else []
        out += [item for s in self.sections for item in s.items if isinstance(item, Figure)]
        return list({f.name: f for f in out}.values())

    @property
    def pages(self) -> list[GamePage]:
        """The games the sections name to watch, each page once, in the order they appear."""
        found = [item.page for s in self.sections for item in s.items if isinstance(item, Watch)]
        return list({p.href: p for p in found}.values())

    def name_players(self, names: Mapping[str, str], played: Collection[str]) -> None:
        """Name the players of the summary, the overview's caption and the findings as a designer would (``names``:
        bot spec -> words, :func:`analysis.report.format.people_words`); the appendix lists the ``played`` ones with
        their bot specs, which the tables and the appendix keep."""
        named = {spec: name for spec, name in names.items() if spec in played}
        if named:
            self.appendix.append(
                Text("Players named in the summary and the findings, with the bot each one is in the runs:")
            )
            self.appendix.append(Table(["player", "bot"], [[name, spec] for spec, name in named.items()]))
        for section in self.sections:
            section.findings[:] = [people_words(line, names) for line in section.findings]
        self.summary[:] = [people_words(line, names) for line in self.summary]
        if self.overview is not None:
            self.overview.caption = people_words(self.overview.caption, names)

    @property
    def first_figure(self) -> Figure | None:
        """The figure of the first screen: the overview, or the first figure of the sections where there is none."""
        return next(iter(self.figures), None)

    @property
    def findings(self) -> list[str]:
        return [f for s in self.sections for f in s.findings]

    @property
    def answers(self) -> list[str]:
        """The summary, or the sections' first answers and findings where the report has none."""
        if self.summary:
            return self.summary
        return ([a for s in self.sections for a in s.answers] or self.findings)[:MAX_ANSWERS]


def _render(fig: MplFigure) -> bytes:
    buf = io.BytesIO()
    FigureCanvasAgg(fig)
    fig.savefig(buf, format="png", dpi=DPI)
    return buf.getvalue()


def make_figure(name: str, caption: str, panels: Sequence[Callable], ncols: int = 1, size=(6.5, 4.0)) -> Figure:
    """Draw ``panels`` (callables taking an Axes) on one figure and render it."""
    nrows = -(-len(panels) // ncols)
    fig = MplFigure(figsize=(size[0] * ncols, size[1] * nrows), layout="constrained")
    axes = fig.subplots(nrows, ncols, squeeze=False).ravel()
    for draw, ax in zip(panels, axes, strict=False):
        draw(ax)
    for ax in axes[len(panels) :]:
        ax.set_visible(False)
    return Figure(name, _render(fig), caption)
