"""The report and the replay pages of the games it names to watch, written together.

A report's sections name notable games (:class:`analysis.report.model.Watch`: the largest comeback, a typical game,
the least balanced setup); analysis never plays a game, so this layer replays each one from its run
(:func:`simulate.replay.replay_view`), renders its page and writes the pages into the report's ``games/`` folder
with the report, which then links them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from tqdm.auto import tqdm

from analysis.report import Report, compute_report, render_replay, write_report
from analysis.report.styles import BestResponse
from simulate.integrity import Derive
from simulate.replay import replay_view
from simulate.runformat import RunFormatError


def game_page(run_dir: str | Path, game_index: int, title: str, why: str) -> str:
    """The replay page of game ``game_index`` of a run, headed ``title`` (after the game's name) and ``why`` it is
    worth watching; raises ``RunFormatError``, ``ValueError`` or ``OSError`` when the game cannot be replayed."""
    game, view = replay_view(run_dir, game_index)
    subtitle = f"{why} Replayed with golem replay {run_dir} --game {game_index}."
    return render_replay(view, f"{game.info.title}: {title}", subtitle)


def game_pages(report: Report, progress: bool = True, log: Callable[[str], None] = print) -> dict[str, str]:
    """Replay every game ``report`` names to watch and render its page: ``{href: html}``. Each page written is marked
    so; one that cannot be replayed (its run moved or damaged) is logged and named by its command in the report."""
    pages: dict[str, str] = {}
    if not report.pages:
        return pages
    for page in tqdm(report.pages, desc="replay pages", unit="page", disable=not progress, leave=False):
        try:
            pages[page.href] = game_page(page.run_path, page.game, page.title, page.why)
        except (RunFormatError, ValueError, OSError) as e:
            log(f"no page for {page.title}: {e}")
            continue
        page.written = True
    return pages


def publish_report(
    run_dirs: Sequence[str | Path],
    out_dir: str | Path,
    title: str | None = None,
    *,
    command: str | None = None,
    progress: bool = True,
    log: Callable[[str], None] = print,
    best_responses: Sequence[BestResponse] = (),
    derive: Derive | None = None,
) -> Path:
    """Compute the report of ``run_dirs`` (with ``best_responses``, see :func:`analysis.report.compute_report`), replay
    the games it names, and write both into ``out_dir``; returns ``out_dir/report.html``
    (:func:`analysis.report.build_report` with the pages). ``derive``: checks the runs' rules and tables against their
    data copies too (:func:`simulate.runner.derived_facts`)."""
    report = compute_report(run_dirs, title, command=command, best_responses=best_responses, derive=derive)
    pages = game_pages(report, progress, log)
    return write_report(report, out_dir, pages)
