"""Reports in a real browser: headless Chromium (Debian's ``chromium``, driven by Playwright for Python, no browser
download) opens each kind of generated ``report.html`` at 1400 x 900 and checks what a designer sees first.

The summary and its overview figure lie inside the first screen, no image is broken, nothing is wider than the page
(the document and every table), and the console shows no error. Each test saves its screenshot under its temporary
folder. Skipped, with the reason, only where Chromium or Playwright cannot be had; ``.ci/run`` installs both.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from analysis.report import build_report
from analysis.report.experiment import build_experiment_report
from analysis.report.model import Report, Section, Table
from analysis.report.render import render_html
from analysis.run import load_run
from simulate.cli import main
from simulate.lineup import parse_lineup
from simulate.orchestration.experiments import Design, run_experiment, sweep_variants
from simulate.registry import make
from simulate.replay import replay_view
from simulate.runner import RunSpec, run
from simulate.variants import settable_values

sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed (test extras)")

CHROMIUM = os.environ.get("GOLEM_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
WIDTH, HEIGHT = 1400, 900
SEED = 31

pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).is_file(), reason=f"no Chromium at {CHROMIUM} (apt-get install chromium; .ci/run does)"
)


def _play(game: str, out: Path, bots: list[str], players: int, num_games: int, seed: int, **design) -> Path:
    spec = RunSpec(game, players, num_games, seed, parse_lineup(make(game), bots, players), **design)
    return run(spec, out, workers=1, progress=False, command=f"(test run {out.name})")


def _study(tmp: Path) -> Path:
    """Century: mirror matches at two player counts, mixed bots, and replayed setups."""
    runs = [
        _play("century", tmp / "m3", ["greedy"], 3, 600, SEED),
        _play("century", tmp / "m4", ["greedy"], 4, 400, SEED + 1),
        _play("century", tmp / "mixed", ["greedy", "engine", "planner"], 3, 300, SEED + 2),
        _play("century", tmp / "setups", ["greedy"], 3, 240, SEED + 3, setups=40, games_per_setup=6),
    ]
    return build_report(runs, tmp / "report", command="golem report ...")


def _golem(tmp: Path) -> Path:
    """Golem: its many setup descriptors and play-profile columns, solo games against the Automa."""
    runs = [
        _play("golem", tmp / "g2", ["balanced"], 2, 120, SEED),
        _play("golem", tmp / "g2s", ["balanced"], 2, 120, SEED + 1, setups=30, games_per_setup=4),
        _play("golem", tmp / "solo", ["balanced"], 1, 60, SEED + 2),
    ]
    return build_report(runs, tmp / "report", command="golem report ...")


def _experiment(tmp: Path) -> Path:
    """A century sweep of two values, named as a user types them."""
    values = settable_values(make("century"))
    variants = sweep_variants(values, [("points.P36.vp", "18"), ("start.seat1", "YYYY")])
    design = Design("century", 3, ("greedy",), tuple(variants), num_games=300, seed=SEED)
    exp = run_experiment(design, tmp / "sweep", command="golem sweep century ...", workers=1)
    return build_experiment_report(exp, tmp / "report", command="golem sweep century ...")


_LAYOUT = """() => {
  const box = el => { const r = el.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  const summary = document.querySelector('#summary .answers');
  const figure = document.querySelector('#summary figure img');
  return {
    width: window.innerWidth,
    scrollWidth: document.documentElement.scrollWidth,
    summary: summary ? box(summary) : null,
    answers: summary ? summary.querySelectorAll('li').length : 0,
    figure: figure ? box(figure) : null,
    broken: [...document.images].filter(i => !i.complete || i.naturalWidth === 0).map(i => i.alt),
    wide: [...document.querySelectorAll('table')]
      .filter(t => t.scrollWidth > t.clientWidth + 1 || t.getBoundingClientRect().right > window.innerWidth)
      .map(t => (t.caption ? t.caption.textContent : t.rows[0].textContent).slice(0, 80)),
  };
}"""


@pytest.mark.parametrize("kind", ["study", "golem", "experiment"])
def test_the_first_screen_answers_and_nothing_is_wider_than_the_page(kind, tmp_path) -> None:
    html = {"study": _study, "golem": _golem, "experiment": _experiment}[kind](tmp_path)
    errors: list[str] = []
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page = browser.new_page(viewport={"width": WIDTH, "height": HEIGHT})
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(html.resolve().as_uri())
            page.wait_for_load_state("load")
            page.screenshot(path=str(tmp_path / f"{kind}-first-screen.png"))
            layout = page.evaluate(_LAYOUT)
        finally:
            browser.close()
    assert (tmp_path / f"{kind}-first-screen.png").stat().st_size > 0
    assert not errors, errors
    assert 3 <= layout["answers"] <= 6, layout
    for part in ("summary", "figure"):
        left, top, right, bottom = layout[part]
        assert left >= 0 and top >= 0 and right <= WIDTH and bottom <= HEIGHT, (part, layout)
    assert not layout["broken"], layout["broken"]
    assert layout["scrollWidth"] <= layout["width"], layout
    assert not layout["wide"], layout["wide"]


def test_a_matrix_of_many_bots_with_long_names_stays_inside_the_page(tmp_path) -> None:
    """A head-to-head matrix of a dozen bots (Golems' styles and search budgets, poker's nine bots) has cells with no
    space to break at: the table wraps them inside the page instead of widening it."""
    bots = [f"apprentice:style=style{k}" for k in range(6)] + [f"search:iterations={k}00" for k in range(1, 7)]
    rows = [[bot, *("58.1% (52.6–63.4%)" for _ in bots)] for bot in bots]
    table = Table(["bot \\ opponent", *bots], rows, "Head-to-head: how often the row bot finishes above the other.")
    html = tmp_path / "report.html"
    html.write_text(render_html(Report("Wide", [], [Section("Strategy strength", [table], [])])), encoding="utf-8")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page = browser.new_page(viewport={"width": WIDTH, "height": HEIGHT})
            page.goto(html.resolve().as_uri())
            layout = page.evaluate(_LAYOUT)
        finally:
            browser.close()
    assert layout["scrollWidth"] <= layout["width"] and not layout["wide"], layout


_REPLAY_VIEW = """() => ({
  move: document.getElementById('move').textContent,
  where: document.getElementById('where').textContent,
  slider: [Number(document.getElementById('slider').value), Number(document.getElementById('slider').max)],
  seats: [...document.querySelectorAll('#seats .seat h3')].map(h => h.textContent),
  mover: document.querySelectorAll('#seats .seat.mover').length,
  cards: document.querySelectorAll('#board svg g.card, #seats svg g.card').length,
  cardText: [...document.querySelectorAll('svg g.card:not(.back) text.card-text')].map(t => t.textContent).join(' | '),
  cardIds: [...document.querySelectorAll('svg g.card:not(.back) text.card-id')].map(t => t.textContent),
  svg: document.querySelectorAll('#board svg *, #seats svg *').length,
  autos: [...document.querySelectorAll('#auto li.auto-event')].map(li => li.textContent),
  fields: document.getElementById('fields').textContent,
  chart: document.querySelectorAll('#chart polyline.score-line').length,
  marker: Number(document.getElementById('marker').getAttribute('x1')),
  scrollWidth: document.documentElement.scrollWidth,
  width: window.innerWidth,
})"""

# (game, players, bots, the title of an automatic step the game shows, a word of its cards' texts)
_REPLAY_GAMES = {
    "century": (3, ["greedy"], "Re-deal", "pay"),
    "golem": (2, ["balanced"], "Golem Control", "cost"),
    "golems": (2, ["collector"], "Refill", "needs"),
    "golem-poker": (3, ["threshold"], "Showdown", " of "),
}


@pytest.mark.parametrize("game", list(_REPLAY_GAMES))
def test_a_replay_page_draws_the_game_and_steps_to_its_end(game, tmp_path) -> None:
    """``golem replay --html`` of one game of each: the board drawn as SVG with card ids beside their texts, the
    automatic steps in words, a score chart with its marker; every step visited with the arrow key, the last
    position's scores equal to the run's games table; offline, no console error, nothing wider than the page."""

    players, bots, auto, word = _REPLAY_GAMES[game]
    run_dir = _play(game, tmp_path / "run", bots, players, 3, SEED)
    page = tmp_path / "game-1.html"
    result = CliRunner().invoke(main, ["replay", str(run_dir), "--game", "1", "--html", str(page)])
    assert result.exit_code == 0, result.output
    assert page.stat().st_size < 600_000
    errors: list[str] = []
    fetched: list[str] = []
    views = []
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            view = browser.new_page(viewport={"width": WIDTH, "height": HEIGHT})
            view.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            view.on("pageerror", lambda e: errors.append(str(e)))
            view.on("request", lambda r: fetched.append(r.url) if not r.url.startswith("file:") else None)
            view.goto(page.resolve().as_uri())
            view.wait_for_load_state("load")
            first = view.evaluate(_REPLAY_VIEW)
            for _ in range(first["slider"][1]):
                view.keyboard.press("ArrowRight")
                views.append(view.evaluate(_REPLAY_VIEW))
            view.screenshot(path=str(tmp_path / f"replay-{game}-last.png"), full_page=True)
            view.keyboard.press("ArrowLeft")
            back = view.evaluate(_REPLAY_VIEW)
            view.click("#first")
            again = view.evaluate(_REPLAY_VIEW)
        finally:
            browser.close()
    assert not errors, errors
    assert not fetched, fetched
    last = views[-1]
    assert first["move"] == "Setup" and first["slider"][0] == 0 and len(first["seats"]) == players
    assert first["cards"] > 0 and first["svg"] > 50 and first["chart"] == players
    assert all(v["slider"][0] == k + 1 for k, v in enumerate(views))  # every step visited in order
    assert sum(v["mover"] for v in views) >= len(views) - 2  # each decision highlights its mover
    assert any(v["move"].startswith("Turn ") for v in views)
    assert any(a.startswith(auto) for v in [first, *views] for a in v["autos"]), auto
    assert any(word in v["cardText"] for v in [first, *views]), word
    assert all(cid.strip() for v in views for cid in v["cardIds"])
    assert last["move"].startswith("Game over") and last["marker"] > first["marker"]
    assert back["slider"][0] == last["slider"][1] - 1 and again == first
    seats = load_run(run_dir, tables=["seats"]).seats
    expected = seats[seats["game"] == 1].sort_values("seat")["score"].tolist()
    shown = [int(h.split(": ")[-1].split()[0]) for h in _by_table_seat(last["seats"])]
    assert shown == expected, (shown, expected)
    assert "seat" in last["fields"] and last["scrollWidth"] <= last["width"] + 1, last


def _by_table_seat(headings: list[str]) -> list[str]:
    """Seat headings in table-seat order: Golem's read ``seat P (table T) (bot): S VP``, drawn in turn order."""
    table = [int(h.split("(table ")[1].split(")")[0]) if "(table " in h else k + 1 for k, h in enumerate(headings)]
    return [h for _, h in sorted(zip(table, headings, strict=True))]


_EXPLAIN_VIEW = """() => ({
  slider: Number(document.getElementById('slider').value),
  why: (document.querySelector('#explain .why') || {textContent: ''}).textContent,
  options: [...document.querySelectorAll('#explain ol.options li.option')].map(li => ({
    text: li.querySelector('.option-text').textContent, played: li.classList.contains('played'),
    bar: li.querySelector('.bar').getBoundingClientRect().width,
  })),
  note: (document.querySelector('#explain .note') || {textContent: ''}).textContent,
})"""

# (game, players, bots): a search seat and the game's learned player (golem-poker has none; its search bets)
_EXPLAINED_GAMES = {
    "century": (2, ["search:iterations=20", "apprentice"]),
    "golem": (2, ["search:iterations=10", "apprentice"]),
    "golems": (2, ["search:iterations=20", "apprentice"]),
    "golem-poker": (3, ["search:iterations=20", "threshold", "equity"]),
}


@pytest.mark.parametrize("game", list(_EXPLAINED_GAMES))
def test_an_explained_replay_page_lists_each_decisions_options(game, tmp_path) -> None:
    """``golem replay --html --explain``: stepping through the page, each decision of a search or apprentice seat
    lists its top options in words with the value each got ("claims P25: 64%"), the move played marked, each
    option's bar as long as its value; they equal the options a second replay of the run's game explains (the
    re-run is reproducible), and a step without an explanation lists none."""

    players, bots = _EXPLAINED_GAMES[game]
    run_dir = _play(game, tmp_path / "run", bots, players, players, SEED)
    page = tmp_path / "explained.html"
    result = CliRunner().invoke(main, ["replay", str(run_dir), "--game", "0", "--html", str(page), "--explain"])
    assert result.exit_code == 0, result.output
    _, view = replay_view(run_dir, 0, explain=True)
    errors: list[str] = []
    shown = []
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            tab = browser.new_page(viewport={"width": WIDTH, "height": HEIGHT})
            tab.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            tab.on("pageerror", lambda e: errors.append(str(e)))
            tab.goto(page.resolve().as_uri())
            tab.wait_for_load_state("load")
            shown.append(tab.evaluate(_EXPLAIN_VIEW))
            for _ in range(len(view["steps"]) - 1):
                tab.keyboard.press("ArrowRight")
                shown.append(tab.evaluate(_EXPLAIN_VIEW))
        finally:
            browser.close()
    assert not errors, errors
    assert [s["slider"] for s in shown] == list(range(len(view["steps"])))
    explained = 0
    for step, on_page in zip(view["steps"], shown, strict=True):
        why = step.get("explain")
        if why is None:
            assert not on_page["options"] and not on_page["why"], on_page
            continue
        explained += 1
        assert why["unit"] in on_page["why"] and view["seat_names"][step["seat"] - 1] in on_page["why"]
        assert len(on_page["options"]) == len(why["options"]) >= 2
        for k, ((words, value), option) in enumerate(zip(why["options"], on_page["options"], strict=True)):
            text, percent = option["text"].rsplit(": ", 1)
            assert text == words and abs(float(percent.removesuffix("%")) - 100 * value) <= 0.5 + 1e-6, option
            assert option["played"] == (k == why["played"])
        bars = [o["bar"] for o in on_page["options"]]
        assert bars == sorted(bars, reverse=True) and bars[0] > 0
        assert bool(on_page["note"]) == (why["played"] != 0)
    searched = [s for s in view["steps"] if s["kind"] == "move" and s["bot"].split(":")[0] in ("search", "apprentice")]
    assert explained >= len(searched) // 2 > 0
    assert sum(s["played"] for o in shown for s in o["options"]) > explained / 2
