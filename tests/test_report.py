"""The report layer: loading and combining runs, ``golem report`` and ``golem study`` on small real runs,
self-contained HTML, and one-line errors (exit code 1, no report) for bad input."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from analysis.report import (
    Figure,
    Report,
    Section,
    Table,
    Text,
    build_report,
    compute_report,
    render_html,
    render_markdown,
)
from analysis.report.format import people_words
from analysis.report.provenance import caution_lines, source_revision
from analysis.report.seats import fairness_answer
from analysis.report.setups import _lineups
from analysis.run import load_run
from analysis.stats.components import component_strength
from analysis.summary import summarize
from simulate.cli import main
from simulate.lineup import parse_lineup
from simulate.manifest import RunManifest
from simulate.orchestration.studies import (
    EXPLOIT_MIN_CONFIRM,
    EXPLOIT_MIN_GAMES,
    EXPLOIT_SEED,
    STRONG_PURPOSE,
    exploit_counts,
    exploit_design,
    plan_study,
    study_for,
)
from simulate.registry import make
from simulate.runformat import RunFormatError
from simulate.runner import RunSpec, run

SEED = 23
SECTIONS = (
    "Win rates by seat",
    "Play profile",
    "First-player advantage in mirror matches",
    "Mixed bots with rotated seats",
    "Setup variance",
    "Strategy strength",
    "Component strength",
    "Game length, scores and end reasons",
    "Convergence",
)


def invoke(*args: str | Path):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


def ok(*args: str | Path):
    result = invoke(*args)
    assert result.exit_code == 0, result.output
    return result


def one_line_error(result, *needles: str) -> str:
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.output
    for needle in needles:
        assert needle in lines[0], result.output
    return lines[0]


def _play(out: Path, bots: list[str], num_games: int, seed: int, players: int = 3, **design) -> Path:
    spec = RunSpec("century", players, num_games, seed, parse_lineup(make("century"), bots, players), **design)
    return run(spec, out, workers=1, progress=False, command=f"(test run {out.name})")


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[str, Path]:
    base = tmp_path_factory.mktemp("runs")
    return {
        "mirror": _play(base / "mirror", ["greedy"], 900, SEED, chunk_size=300),
        "mixed": _play(base / "mixed", ["greedy", "engine", "planner"], 300, SEED + 1),
        # a nested design: 10 openings x 4 hidden orders x 6 plays
        "setups": _play(base / "setups", ["greedy"], 240, SEED + 2, setups=40, games_per_setup=6, orders_per_opening=4),
        "mirror4": _play(base / "mirror4", ["greedy"], 400, SEED + 3, players=4),
    }


@pytest.fixture(scope="module")
def combined_report(runs, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("report") / "all"
    result = ok(
        "report", runs["mirror"], runs["mixed"], runs["setups"], runs["mirror4"], "--out", out, "--title", "Test report"
    )
    assert "report.html" in result.output
    return out


def test_load_run_reads_only_the_columns_asked_for(runs) -> None:
    r = load_run(runs["mirror"], tables="seats", columns=["game", "seat", "win"])
    assert list(r.seats.columns) == ["run_id", "game", "seat", "win"]
    assert r.games is None and r.components is None
    assert len(r.seats) == 900 * 3
    assert str(r.seats["run_id"].dtype) == "category"


def test_load_run_combines_runs_with_unique_game_ids(runs) -> None:
    r = load_run([runs["mirror"], runs["setups"]], tables=["games", "seats"])
    assert r.offsets == [0, 900]
    assert r.games["game"].is_unique and len(r.games) == 900 + 240
    assert r.seats.groupby("run_id", observed=True)["game"].min().sort_values().tolist() == [0, 900]
    # setup ids stay unique per run: the 40 replayed setups keep their own ids after the offset
    setups = r.games[r.games["run_id"] == r.manifests[1]["run_id"]]
    assert setups["setup_id"].nunique() == 40 and setups["setup_id"].min() == 900
    assert {m["path"] for m in r.manifests} == {str(runs["mirror"]), str(runs["setups"])}


def test_report_has_every_section_and_both_formats(combined_report, runs) -> None:
    md = (combined_report / "report.md").read_text(encoding="utf-8")
    html = (combined_report / "report.html").read_text(encoding="utf-8")
    assert md.startswith("# Test report")
    for title in SECTIONS:
        assert title in md and title in html
    for key in ("Summary", "Verdict", "association, not cause", "turn cap", "golem report"):
        assert key in md
    # the length at a table, from every game even without trajectories: the box's time and the estimated pace named
    for key in ("minutes at a table (estimate)", "seconds a turn the box allows", "ESTIMATE", "30-45 min"):
        assert key in md
    # the first screen: the answers and the overview figure, before every section; provenance last
    summary = md[md.index("## Summary") : md.index("## Findings, section by section")]
    # players named as a designer would (the game's bot_names), the bot specs in the appendix
    assert summary.startswith(
        "## Summary\n\n- Game length by player count (3 / 4 players; greedy heuristic mirror matches): "
    )
    assert "min at a table at an estimated pace (box: 30-45 min)" in summary.splitlines()[2]
    assert "\n- Fair to every seat? " in summary
    for answer in ("How much the setup decides: ", "Strongest strategy: ", "Component that stands out"):
        assert f"\n- {answer}" in summary
    setup_line = next(line for line in summary.splitlines() if line.startswith("- How much the setup decides: "))
    assert ", greedy heuristic at every seat: " in setup_line  # the players it was measured with, in people's words
    setup = md[re.search(r"## \d+\. Setup variance", md).start() :]
    assert "| 10 × 4 × 6 |" in setup and "the public opening decides" in setup and "the hidden order" in setup
    assert "equally matched, the public opening fixes the winner of" in setup and "the whole deal, their sum," in setup
    assert "The deal fixes the winner of" in setup and "played by greedy at every seat, equally matched" in setup
    assert "](overview-seats.png)" in summary
    assert md.index("## 1. ") > md.index("## Summary") and md.rindex("## ") == md.index("## Appendix: provenance")
    appendix = md[md.index("## Appendix: provenance") :]
    assert "Runs in this report: the settings that differ between them." in appendix
    assert "| greedy heuristic | greedy |" in appendix
    findings = md[md.index("## Findings, section by section") : md.index("## 1. ")]
    assert "(greedy heuristic mirror matches" in findings and "(greedy mirror matches" not in findings, "people's words"
    runs_table = appendix[appendix.index("| run |") :].splitlines()[0]
    assert "| game |" not in runs_table and "| engine |" not in runs_table  # shared: listed once above
    for run_dir in runs.values():
        assert f"(test run {run_dir.name})" in md  # each run's command
    pngs = sorted(p.name for p in combined_report.glob("*.png"))
    referenced = sorted(set(re.findall(r"\]\(([^)]+\.png)\)", md)))
    assert pngs and pngs == referenced


def test_html_is_self_contained(combined_report) -> None:
    html = (combined_report / "report.html").read_text(encoding="utf-8")
    sources = re.findall(r'\bsrc="([^"]*)"', html)
    assert sources and all(s.startswith("data:image/png;base64,") for s in sources)
    assert len(sources) == len(list(combined_report.glob("*.png")))
    assert "<link" not in html and "<script" not in html and "url(" not in html
    # the only links out: the replay pages of the games it names, written beside it
    outside = re.findall(r'href="(?!#)([^"]*)"', html)
    assert outside and all(h.startswith("games/") and (combined_report / h).is_file() for h in outside)


def test_the_report_links_the_games_it_names_to_their_replay_pages(runs, tmp_path) -> None:
    """The largest comeback, a typical game (the headline lineup) and the least balanced setup: each page written
    beside the report replays the game the report names (its run and index), whose winner the report says."""
    traced = _play(tmp_path / "traced", ["greedy"], 300, SEED + 4, trajectories=True)
    out = tmp_path / "report"
    ok("report", traced, runs["setups"], "--out", out)
    md = (out / "report.md").read_text(encoding="utf-8")
    named = re.findall(r"\*\*Watch: \[([^\]]+)\]\((games/[^)]+)\)\.\*\* ([^\n]+)", md)
    hrefs = {h for _, h, _ in named}
    assert {"games/largest-comeback-3p.html", "games/typical-3p.html", "games/least-balanced-setup-3p.html"} <= hrefs
    assert sorted(p.relative_to(out).as_posix() for p in (out / "games").iterdir()) == sorted(hrefs)
    report = compute_report([traced, runs["setups"]], random_state=0)
    for page in report.pages:
        html = (out / page.href).read_text(encoding="utf-8")
        assert f'"game":{page.game},' in html and page.run_id in html
        if "comeback" in page.href:
            seats = load_run(page.run_path, tables="seats", columns=["game", "seat", "win"]).seats
            winner = seats[(seats["game"] == page.game) & (seats["win"] == 1)]["seat"].tolist()
            assert page.why.startswith(f"Seat {winner[0]} was ") and " behind the leader after round " in page.why
    # built without its pages (analysis alone never replays a game), the report names the command that writes one
    text = render_markdown(report)
    assert "**Watch: the largest comeback (3 players, greedy).**" in text
    assert f"Write its page with `golem replay {traced} --game " in text
    # a second report in the same folder leaves no page of the first behind
    ok("report", runs["setups"], "--out", out, "--overwrite")
    assert sorted(p.name for p in (out / "games").iterdir()) == ["least-balanced-setup-3p.html"]


def test_play_profile_warns_of_a_mechanism_a_bot_never_uses(runs, tmp_path) -> None:
    """greedy without lookahead never buys a merchant card: the report says so; the default greedy does not."""
    old = _play(tmp_path / "old", ["greedy:lookahead=0"], 60, SEED)  # mirror: no one leaves crystals on a card
    section = next(s for s in compute_report([old, runs["mirror"]]).sections if s.title == "Play profile")
    warnings = [i.text for i in section.items if isinstance(i, Text) and i.kind == "warn"]
    assert any(w.startswith("Bot greedy:lookahead=0 never uses merchants_bought") for w in warnings), warnings
    assert not any("merchants_bought" in w for w in warnings if w.startswith("Bot greedy "))
    assert any("merchants_bought" in f for f in section.findings)
    table = next(i for i in section.items if isinstance(i, Table))  # the narrow way round: bots or mechanisms across
    mechanisms = json.loads((runs["mirror"] / "manifest.json").read_text())["columns"]["profile"]
    assert len(mechanisms) > 2 and table.columns == ["mechanism", "greedy:lookahead=0", "greedy"], table.columns
    assert [r[0] for r in table.rows] == ["seat-games", *mechanisms]


def test_sections_follow_the_data(runs) -> None:
    mirror_only = [s.title for s in compute_report([runs["mirror"]]).sections]
    assert "First-player advantage in mirror matches" in mirror_only
    for absent in ("Mixed bots with rotated seats", "Strategy strength", "Setup variance"):
        assert absent not in mirror_only
    mixed_only = [s.title for s in compute_report([runs["mixed"]]).sections]
    assert "Strategy strength" in mixed_only and "First-player advantage in mirror matches" not in mixed_only


def test_study_runs_and_reports_at_a_tiny_scale(tmp_path) -> None:
    ok(
        "study",
        "century",
        "--games",
        "700",
        "--runs-dir",
        tmp_path / "runs",
        "--out",
        tmp_path / "rep",
        "--workers",
        "1",
        "-q",
    )
    assert (tmp_path / "rep" / "report.html").is_file()
    md = (tmp_path / "rep" / "report.md").read_text(encoding="utf-8")
    assert "golem study century --games 700" in md
    _best_response_page_is_written_and_linked(tmp_path / "rep", tmp_path / "runs" / "century-2p-exploit", md)
    for n in exploit_counts("century")[1:]:  # and at the ladder's other player counts, each on the first screen
        assert (tmp_path / "runs" / f"century-{n}p-exploit" / "exploit.json").is_file()
        assert re.search(rf"\n  - {n} players [^\n]*; (a searched best response wins |a short hunt)", md)
    assert "games a pair): " in md and "\n  - 3 players (" in md and "\n  - 4 players (" in md  # the styles' answers
    # a style is named as a designer would in the summary and the findings (the tables keep the bot specs)
    words = (
        md.split("## Findings, section by section")[0]
        + md.split("## Findings, section by section")[1].split("\n## ")[0]
    )
    assert "apprentice:style=" not in words and "the engine style" in words
    played = len(list((tmp_path / "runs").iterdir()))
    assert played >= len(plan_study("century", 700)), "the planned runs, then the precision top-ups"
    args = ["study", "century", "--games", "700", "--runs-dir", tmp_path / "runs", "--out", tmp_path / "rep"]
    page = (tmp_path / "rep" / "report.html").read_bytes()
    one_line_error(invoke(*args, "--workers", "1", "-q"), "already holds a report", "--overwrite")
    assert (tmp_path / "rep" / "report.html").read_bytes() == page
    before = {p.name for p in (tmp_path / "runs").iterdir()}
    again = ok(*args, "--workers", "1", "-q", "--overwrite")
    assert again.output.count("reused") >= len([n for n in before if "-more" not in n]), "every planned run reused"
    added = {p.name for p in (tmp_path / "runs").iterdir()} - before
    assert added and all("-more" in n for n in added), "evidence accumulates: precision top-ups under new numbers"
    assert (
        "precision: topping up the ladder's rungs" in again.output and "not reached within the budget" in again.output
    )


def _best_response_page_is_written_and_linked(report: Path, search: Path, md: str) -> None:
    """A study whose game has styles runs a small exploit search at 2 players (in its runs folder); its Strategies at
    strong play section gives the exploitability measured there and links the page of a measuring game the best
    response won, written in the report's games/ and replaying that game."""
    record = json.loads((search / "exploit.json").read_text(encoding="utf-8"))
    design, result = record["design"], record["result"]
    assert design["num_players"] == 2 and design["budget"] >= 2 and design["confirm_games"] >= 40
    assert f"Exploitability of the apprentice at 2 players: {100 * result['exploitability']:+.1f} pp" in md
    assert f"{design['confirm_games']:,} games). What the best response does differently" in md
    assert result["watch"] >= 0, "a best response wins some of its 40 measuring games against its equal"
    link = "**Watch: [a game the searched best response won (2 players)](games/best-response-win-2p.html).**"
    assert link in md
    html = (report / "games" / "best-response-win-2p.html").read_text(encoding="utf-8")
    run_id = json.loads((search / "confirm" / "manifest.json").read_text(encoding="utf-8"))["run_id"]
    assert f'"game":{result["watch"]},' in html and run_id in html
    seats = load_run(search / "confirm", tables="seats", columns=["game", "bot", "win"]).seats
    won = seats[(seats["game"] == result["watch"]) & (seats["win"] == 1)]["bot"].astype(str).tolist()
    assert result["carrier"] in won


def test_a_study_with_styles_scales_its_exploit_search_with_its_games() -> None:
    """The default study searches as the game declares; a tenfold study plays ten times the games a candidate and to
    measure the best (the same candidates); a tiny one the fewest; a game whose apprentice has no styles, none."""
    default, large, tiny = (exploit_design("century", n, seed=5) for n in (None, 10_000_000, 700))
    assert (default.games, default.budget, default.confirm_games) == study_for("century").exploit
    assert (large.games, large.budget, large.confirm_games) == (3_000, 24, 40_000)
    assert (tiny.games, tiny.budget, tiny.confirm_games) == (EXPLOIT_MIN_GAMES, 2, EXPLOIT_MIN_CONFIRM)
    assert default.num_players == 2 and default.seed == 5 + EXPLOIT_SEED and default.cards is None
    edited = exploit_design("century", 700, cards="my-cards", rules={"gift": "M08"})
    assert edited.cards == "my-cards" and edited.rules == (("gift", "M08"),)
    assert exploit_design("golems").budget == study_for("golems").exploit[1]  # styled since 7 Dec
    assert exploit_design("golem-poker") is None
    # at 2 players and at each of the ladder's player counts, as the styles stage plays them
    assert exploit_counts("century") == tuple(sorted({2, *study_for("century").ladder_players})) != (2,)
    assert exploit_design("century", 700, num_players=4).num_players == 4
    assert exploit_counts("golems") == (2,)


def test_study_plan_scales_and_separates_seeds() -> None:
    small, large = plan_study("century", 10_000), plan_study("century", 1_000_000)
    assert sum(p.spec.num_games for p in large) >= 1_000_000 * 0.99
    small = [p for p in small if not p.purpose.startswith("card value")]  # a value design's arms share games...
    unpaired = [p for p in large if not p.purpose.startswith("card value")]  # ...and never fewer than 200 an arm
    assert len(unpaired) == len(small)
    # every run scales with the study but the round robin of the strong rungs, floored at a game per seat when small
    scaled = [(s, u) for s, u in zip(small, unpaired, strict=True) if not s.purpose.startswith(STRONG_PURPOSE)]
    assert [s.spec.num_games * 100 for s, _ in scaled] == pytest.approx([u.spec.num_games for _, u in scaled], rel=0.01)
    assert len({p.spec.master_seed for p in small}) == len(small)
    assert len({p.spec.master_seed for p in unpaired}) == len(unpaired)
    assert all(p.spec.num_games % (p.spec.games_per_setup * p.spec.orders_per_opening) == 0 for p in large)
    nested = [p for p in large if p.spec.orders_per_opening > 1]
    assert nested and all(f"--orders-per-opening {p.spec.orders_per_opening}" in p.command for p in nested)
    # every pair of the apprentice's strategy styles and the plain apprentice at 2 players, and at the ladder's other
    # counts every table of them (seats rotated): all three at 3, each of them doubled at 4
    styles = [p for p in large if p.purpose.startswith("strategy styles")]
    pairs = {frozenset(b.label for b in p.spec.lineup) for p in styles if p.spec.num_players == 2}
    bots = {"apprentice", "apprentice:style=rush", "apprentice:style=engine"}
    assert pairs == {frozenset((a, b)) for a in bots for b in bots if a < b}
    tables = {
        n: sorted(sorted(b.label for b in p.spec.lineup) for p in styles if p.spec.num_players == n) for n in (3, 4)
    }
    assert tables[3] == [sorted(bots)]
    assert tables[4] == sorted(sorted([*bots, b]) for b in bots)
    assert len(styles) == 3 + 1 + 3 and all(p.spec.num_games == 2_500 for p in styles)
    golems = [p for p in plan_study("golems", 1_000_000) if p.purpose.startswith("strategy styles")]
    assert len(golems) == 10 and all(p.spec.num_games == 2_500 for p in golems)  # 4 styles and the plain apprentice
    assert not [p for p in plan_study("golem-poker", 10_000) if p.purpose.startswith("strategy styles")]  # none


def _copy(src: Path, dst: Path) -> Path:
    shutil.copytree(src, dst)
    return dst


def _edit_manifest(run_dir: Path, **changes) -> None:
    path = run_dir / "manifest.json"
    manifest = json.loads(path.read_text())
    manifest.update(changes)
    path.write_text(json.dumps(manifest))


def _bad_input(kind: str, runs: dict[str, Path], tmp: Path) -> tuple[list[Path], str]:
    if kind == "missing":
        return [tmp / "nowhere"], "nowhere: no such run directory"
    if kind == "empty":
        (tmp / "empty").mkdir()
        return [tmp / "empty"], "empty: not a run directory"
    if kind == "version":
        bad = _copy(runs["mirror"], tmp / "v9")
        _edit_manifest(bad, format_version=9)
        return [bad], "format version 9"
    if kind == "truncated":
        bad = _copy(runs["mirror"], tmp / "cut")
        part = bad / "seats" / "part-00001.parquet"
        part.write_bytes(part.read_bytes()[:-200])
        return [bad], "part-00001.parquet"
    if kind == "missing_part":
        bad = _copy(runs["mirror"], tmp / "gone")
        (bad / "components" / "part-00002.parquet").unlink()
        return [bad], "part-00002.parquet: part file is missing"
    if kind == "incomplete":
        bad = _copy(runs["mirror"], tmp / "half")
        _edit_manifest(bad, status="interrupted")
        return [bad], "not complete"
    if kind == "other_game":  # a real run of another game: an edited manifest's game is refused as an edit
        bad = tmp / "poker"
        lineup = parse_lineup(make("golem-poker"), ["random"], 3)
        run(RunSpec("golem-poker", 3, 20, 0, lineup), bad, workers=1, progress=False)
        return [runs["mirror"], bad], "cannot be combined"
    if kind == "twice":
        return [runs["mirror"], runs["mirror"]], "the same run"
    raise ValueError(kind)


@pytest.mark.parametrize(
    "kind", ["missing", "empty", "version", "truncated", "missing_part", "incomplete", "other_game", "twice"]
)
def test_bad_input_is_one_line_error_and_no_report(kind, runs, tmp_path) -> None:
    paths, needle = _bad_input(kind, runs, tmp_path)
    out = tmp_path / "report"
    line = one_line_error(invoke("report", *paths, "--out", out), needle)
    assert str(paths[-1].name) in line
    assert not out.exists()
    with pytest.raises(RunFormatError):
        load_run(paths)


def test_a_run_without_what_the_report_needs_of_the_game_is_refused_in_one_line(runs, tmp_path) -> None:
    """Documents never load the engine: the score unit, turn order and measures come from the manifest."""
    assert json.loads((runs["mirror"] / "manifest.json").read_text())["report"] == {
        "score_unit": "points",
        "turn_order_column": None,
        "round_word": "round",
        "metrics": {},
        "skill_ladder": list(make("century").info.skill_ladder),  # apprentice too, since main's a2bb15b
        "bot_names": dict(make("century").info.bot_names),
        "profile_forced": ["crystals_discarded"],
        "outcome": "win",
        "outcome_precision": None,
        "design_measures": [],
        "public_opening": make("century").info.public_opening,
        "hidden_order": make("century").info.hidden_order,
        "playing_time": make("century").playing_time(),
        "rule_words": {name: option.help for name, option in make("century").rule_options().items()},
    }
    old = _copy(runs["mirror"], tmp_path / "old")
    manifest = json.loads((old / "manifest.json").read_text())
    del manifest["report"]
    (old / "manifest.json").write_text(json.dumps(manifest))
    out = tmp_path / "report"
    one_line_error(invoke("report", old, "--out", out), "old: the run was written before", "play it again")
    assert not out.exists()


def test_the_pages_come_from_the_templates_and_escape_what_they_show() -> None:
    """The model is data, the templates lay it out: HTML is escaped, Markdown table cells escape '|'."""
    table = Table(["c|1", "d"], [["x<y", "p|q"]], "cap")
    report = Report("T <1>", [Text("a|b <i>")], [Section("S", [table, Text("x & y", "code")], ["f <b>"])], caution="c<")
    md, page = render_markdown(report), render_html(report)
    assert md.startswith(
        "# T <1>\n\n## Summary\n\n> **⚠ Caution.** c<\n\n- f <b>\n\n## Findings, section by section\n\n- f <b>\n\n"
        "## Contents\n\n1. S\n- Appendix: provenance\n"
    ), md
    assert md.endswith("## Appendix: provenance\n\na|b <i>\n")
    assert "*cap*\n\n| c\\|1 | d |\n|---|---|\n| x<y | p\\|q |\n\n```\nx & y\n```\n" in md
    assert "<i>" not in page and "<b>" not in page and "<title>T &lt;1&gt;</title>" in page
    # what limits every answer (invented or estimated data) comes before them, on the first screen
    assert '<div class="answers"><h2>Summary</h2><p class="warn"><strong>⚠ Caution.</strong> c&lt;</p><ul><li>f' in page
    assert "<caption>cap</caption><thead><tr><th>c|1</th><th>d</th></tr></thead>" in page
    assert "<pre><code>x &amp; y</code></pre>" in page and page.endswith("</body></html>\n")


def test_unknown_game_for_study_is_one_line_error(tmp_path) -> None:
    one_line_error(invoke("study", "chess", "--runs-dir", tmp_path), "unknown game 'chess'")


def test_game_declared_measures_are_reported(tmp_path: Path) -> None:
    """A game's report_metrics appear with their per-game means (golem-poker: house take, deals)."""
    from simulate.lineup import parse_lineup
    from simulate.registry import make
    from simulate.runner import RunSpec, run

    game = make("golem-poker")
    spec = RunSpec("golem-poker", 4, 2_000, 5, parse_lineup(game, ["threshold"], 4))
    run_dir = run(spec, tmp_path / "poker", workers=1, progress=False)
    out = build_report([run_dir], tmp_path / "report")
    text = out.with_name("report.md").read_text()
    games = pd.read_parquet(run_dir / "games")
    assert "Game-specific measures" in text
    row = next(line for line in text.splitlines() if "| house_take |" in line)
    assert f"| {games['house_take'].mean():.2f} |" in row
    long_row = next(line for line in text.splitlines() if "| long_pot |" in line)
    assert f"| {(games['rounds'] >= 3).mean():.2f} |" in long_row
    ratio_row = next(line for line in text.splitlines() if "| golem_win_rate |" in line)
    assert f"| {games['golem_wins'].sum() / games['showdowns'].sum():.3f} |" in ratio_row, "a ratio of totals"
    assert "scores" in text and " chips (" in text and " points (" not in text, "poker scores count chips"
    # the summary leads with the game's design measures and its length, in the game's own currency
    report = compute_report([run_dir])
    lead = report.summary[0].split("\n")
    assert lead[0] == "Design measures by player count (4 players; hand-strength threshold player mirror matches):", (
        lead
    )
    decides = (games["golem_wins"] > 0).mean()
    decides_words = (
        "share of pots the golem hand decides (it beat the best hand at a showdown and carried the pot over)"
    )
    assert lead[1] == f"{decides_words}: {100 * decides:.0f}%", lead
    golem = games["golem_wins"].sum() / games["showdowns"].sum()
    assert lead[2] == f"share of showdowns the golem won: {100 * golem:.0f}%", lead
    assert lead[-1].startswith(f"game length: {games['rounds'].mean():.1f} (") and "no playing time" in lead[-1]
    assert report.summary[1].startswith("Fair to every seat at strong play, in net chips against the other seats?")
    # beside a mirror run of a stronger rung (cfr, the top of the declared ladder) the measures are given again there
    strong = run(
        RunSpec("golem-poker", 4, 600, 6, parse_lineup(game, ["cfr"], 4)), tmp_path / "cfr", workers=1, progress=False
    )
    lead = compute_report([run_dir, strong]).summary[0].split("\n")
    cfr_games = pd.read_parquet(strong / "games")
    line = next(x for x in lead if x.startswith("at strong play"))
    assert line.startswith(
        "at strong play (the strongest rung measured: equilibrium player (CFR policy) at 4 (600 games)): share of pots"
    )
    assert f"carried the pot over) {100 * (cfr_games['golem_wins'] > 0).mean():.0f}%;" in line
    assert lead[1].endswith(f"{100 * decides:.0f}%"), "the design lines still read the largest mirror run"


def test_rule_variants_are_compared_with_their_baseline_and_never_pooled(tmp_path: Path) -> None:
    game = make("golem-poker")
    lineup = parse_lineup(game, ["threshold"], 4)
    base = run(RunSpec("golem-poker", 4, 1_500, 5, lineup), tmp_path / "base", workers=1, progress=False)
    other = run(
        RunSpec("golem-poker", 3, 600, 6, parse_lineup(game, ["threshold"], 3)),
        tmp_path / "three",
        workers=1,
        progress=False,
    )
    variant = run(
        RunSpec("golem-poker", 4, 1_000, 7, lineup, rules={"penalty_antes": 6}),
        tmp_path / "penalty",
        workers=1,
        progress=False,
    )
    report = compute_report([base, other, variant])
    titles = [s.title for s in report.sections]
    assert "Rule options side by side" in titles
    mirror = report.sections[titles.index("First-player advantage in mirror matches")]
    four = next(i for i in mirror.items if getattr(i, "caption", "") == "Wald test of equal win shares (1/n each).")
    assert [r[1] for r in four.rows if r[0] == "4"] == ["1,500"], "the variant's games stay out of the pool"
    side = report.sections[titles.index("Rule options side by side")]
    table = next(i for i in side.items if hasattr(i, "rows"))
    pots = next(r for r in table.rows if r[2].startswith("pot ("))
    assert pots[:2] == ["penalty", "penalty_antes=6"] and pots[-1] == "yes", "a bigger penalty grows the pot"
    base_pot = pd.read_parquet(base / "games")["pot"].mean()
    assert pots[3] == f"{base_pot:.3f}"
    assert any("penalty_antes=6" in f for f in side.findings)
    assert "differ in rules" not in report.caution
    penalty = game.rule_options()["penalty_antes"].help  # the summary says what the option decides
    stands_out = f"Rule option that stands out: penalty_antes=6 ({penalty}; 4 players) moves "
    assert any(a.startswith(stands_out) for a in report.summary), report.summary
    # the bullets name every measure they compared, not "no measure changed", in words, not column names
    finding = next(f for f in side.findings if "penalty_antes=6" in f)
    measures = [*game.info.report_metrics, "seat 1 net chips"]  # in the game's own currency
    assert all(name.replace("_", " ") in finding for name in measures), finding
    answer = next(a for a in report.summary if a.startswith(stands_out))
    assert f"the {len(measures)} measures compared (" in answer, answer
    assert not any(name in text for name in game.info.report_metrics for text in (finding, answer) if "_" in name)
    assert any(r[2].startswith("house_take (") for r in table.rows), "the table keeps the column names"


def test_a_game_with_a_drawn_turn_order_reports_seats_by_that_order(tmp_path) -> None:
    game = make("golem")
    spec = RunSpec("golem", 2, 300, 5, parse_lineup(game, ["greedy"], 2))
    out = run(spec, tmp_path / "g2", workers=1, progress=False, command="(test run g2)")
    text = render_markdown(compute_report([out], random_state=0))
    assert "place in the first round's turn order" in text
    seats = load_run(out, tables="seats", columns=["start_position", "seat", "win"]).seats
    by_place = seats.groupby("start_position")["win"].mean()
    by_table = seats.groupby("seat")["win"].mean()
    assert not by_place.equals(by_table)
    rate = f"{100 * by_place.loc[1]:.2f}%"
    assert rate in text, (rate, by_table.to_dict())
    assert "Seat = place in turn order" in text
    # the CLI summary counts the same seats as the report (it counted table seats)
    summary = summarize(out)
    assert "seat = place in turn order" in summary
    line = next(x for x in summary.splitlines() if x.strip().startswith("seat 1:"))
    assert f"{by_place.loc[1]:6.1%}" in line, (line, by_place.to_dict(), by_table.to_dict())
    # components name table seats: their rows must still meet the right seats
    t = load_run(out)
    direct = component_strength(t.seats, t.components, t.games, correction="holm")
    top = direct.loc[direct["win_diff"].abs().idxmax()]
    row = f"| {top['component']} | {top['kind']} | {top['num_acquired']} | {100 * top['win_rate']:.1f}% |"
    assert row in text, row


def test_the_source_revision_notes_uncommitted_changes_of_this_checkout() -> None:
    """Reports name the commit they were made from, and say so when the code differed from it."""
    root = Path(__file__).resolve().parent.parent
    try:
        head = subprocess.run(["git", "rev-parse", "--short=12", "HEAD"], cwd=root, capture_output=True, text=True)
    except OSError:
        pytest.skip("git is not installed")
    if head.returncode:
        pytest.skip("not a git checkout")
    paths = ["simulate", "analysis", "seeds"]
    status = subprocess.run(["git", "status", "--porcelain", "--", *paths], cwd=root, capture_output=True, text=True)
    dirty = " with uncommitted changes" if status.stdout.strip() else ""
    assert source_revision() == f" (git {head.stdout.strip()}{dirty})"


def test_the_fairness_answer_groups_the_fair_player_counts_and_names_the_seat_furthest_from_its_share() -> None:
    rows = [(2, 1, 0.60), (2, 2, 0.40), (3, 1, 0.34), (3, 2, 0.33), (3, 3, 0.33), (4, 1, 0.25), (4, 2, 0.20)]
    rows += [(4, 3, 0.30), (4, 4, 0.25)]
    table = pd.DataFrame(rows, columns=["num_players", "seat", "win_rate"])
    table["fair"] = 1 / table["num_players"]
    table["excess"] = table["win_rate"] - table["fair"]
    table["ci_low"], table["ci_high"] = table["win_rate"] - 0.02, table["win_rate"] + 0.02
    tests = pd.DataFrame(
        {"num_players": [2, 3, 4], "num_games": [900, 100, 100], "pvalue": [1e-5, 0.5, 0.2], "significant": [1, 0, 0]}
    ).astype({"significant": bool})
    assert fairness_answer(table, tests, "greedy mirror matches") == (
        "Fair to every seat? No seat's win rate differs detectably from its share at 3 and 4 players in 100 games "
        "each (the intervals still allow differences up to 7.0 pp); no at 2 players: the first player wins 60.0% "
        "(58.0–62.0%) where a fair share is 50.0%. Measured in greedy mirror matches."
    )


def test_the_fairness_answer_never_says_no_difference_from_a_small_run_without_what_would_settle_it() -> None:
    table = pd.DataFrame({"num_players": [2, 2], "seat": [1, 2], "win_rate": [0.52, 0.48]})
    table["fair"], table["excess"] = 0.5, table["win_rate"] - 0.5
    table["ci_low"], table["ci_high"] = table["win_rate"] - 0.06, table["win_rate"] + 0.06
    tests = pd.DataFrame({"num_players": [2], "num_games": [300], "pvalue": [0.4], "significant": [False]})
    answer = fairness_answer(table, tests, "search mirror matches")
    assert "unresolved, about 2,400 more games would bring every interval within ±2 pp" in answer, answer


def test_strongest_strategy_says_when_another_bot_beats_it_head_to_head() -> None:
    """Intransitive strengths (A crushes C, B beats C less but beats A): A can rate first by Bradley-Terry, and the
    answer must then say that B beats A head to head."""
    from analysis.report.strategies import build_strategy_section

    rng = np.random.default_rng(4)
    rows, game = [], 0
    for first, second, p_first, n in (("A", "C", 0.97, 1500), ("B", "C", 0.75, 1500), ("B", "A", 0.60, 1500)):
        for _ in range(n):
            won = rng.random() < p_first
            rows += [(game, 0, first, 1 if won else 2), (game, 1, second, 2 if won else 1)]
            game += 1
    seats = pd.DataFrame(rows, columns=["game", "seat", "bot", "rank"])
    section, ratings = build_strategy_section(seats, 0.05)
    assert ratings.iloc[0]["bot"] == "A"
    answer = section.answers[0]
    assert "but head to head B finishes above it" in answer and "not transitive" in answer
    seats = seats[seats["game"] < 3000]
    section, _ = build_strategy_section(seats, 0.05)
    assert "not transitive" not in section.answers[0], "without the B-A games nothing says otherwise"


def _run_with_data(run_id: str, data: dict) -> RunManifest:
    """A typed manifest of a 2-player run whose data record is ``data``."""
    design = {"chunk_size": 10}
    return RunManifest.from_json(
        {"run_id": run_id, "game": "golem", "num_players": 2, "num_games": 10, "master_seed": 1, "design": design,
         "lineup": [{"label": "random", "bot": "random"}] * 2, "data": data}
    )  # fmt: skip


def test_the_first_caution_says_which_data_are_invented_and_which_estimated() -> None:
    invented = _run_with_data("a", {"estimates": True, "label": "stand-in deck (invented)"})
    text = caution_lines([invented])
    assert text.startswith("Invented data: stand-in deck (invented).") and "not the printed game" in text
    estimated = _run_with_data(
        "b",
        {
            "estimates": True,
            "folder": "seeds/golem",
            "estimated_rows": {"books.csv": 38, "artifacts.csv": 32, "cemetery.csv": 5, "streets.csv": 10},
            "estimated_parameters": ["row_weights"],
        },
    )
    text = caution_lines([estimated])
    assert text.startswith("Estimated data: 85 rows of 4 tables (books, artifacts, streets and 1 more)")
    assert "and 1 game parameter are estimates" in text and "seeds/golem" in text and "provisional" in text
    assert caution_lines([_run_with_data("c", {"estimates": False})]) == ""


def test_the_setup_section_says_who_played_and_whether_they_were_equally_matched() -> None:
    """The deal's share is a fact about the players of the run: a mirror match reads as equally matched players at
    one skill level, a mixed lineup says it is not, and lineups pooled at one player count are named as pooled."""
    seats = pd.DataFrame(
        {
            "game": [0, 0, 1, 1, 2, 2, 3, 3, 3],
            "num_players": [2, 2, 2, 2, 2, 2, 3, 3, 3],
            "bot": ["greedy", "greedy", "planner", "planner", "greedy", "planner", "greedy", "greedy", "greedy"],
        }
    )
    words = _lineups(seats)
    assert words[3] == "greedy at every seat, equally matched"
    assert words[2] == "greedy; greedy + planner; planner (pooled)"


def test_players_are_named_in_peoples_words_wherever_a_spec_stands_as_a_word() -> None:
    """A bot spec ending a clause ("4 and 6 players: equity: the strongest ...") is a player; one with parameters
    after it is a longer spec, and " style" after one names a strategy style."""
    names = {"equity": "equity player", "search": "search (100 iterations)", "search:iterations=50": "quick search"}
    text = "4 and 6 players: equity: the strongest; search:iterations=50 beats search; the search style; equity:k=2"
    assert people_words(text, names) == (
        "4 and 6 players: equity player: the strongest; quick search beats search (100 iterations); the search "
        "style; equity:k=2"
    )


@pytest.mark.parametrize("game", ["century", "golem", "golems", "golem-poker"])
def test_naming_players_twice_names_them_once(game: str) -> None:
    """A line already in people's words stays as it is (the what-if skill line, which names its players, read
    "hand-strength hand-strength threshold player player" once the report named them again)."""
    from simulate.registry import make

    names = make(game).info.bot_names
    text = "; ".join(f"{spec} and {name}" for spec, name in names.items())
    once = people_words(text, names)
    assert people_words(once, names) == once
    assert once == "; ".join(f"{name} and {name}" for name in names.values())


def test_a_what_if_report_names_its_players_as_the_study_does() -> None:
    """An experiment's first screen (a balance search's "changes with skill" line) names its players in words; the
    appendix lists each one with its bot spec; a table keeps the specs."""
    from analysis.report.experiment import _players_named

    names = {"greedy": "greedy heuristic", "search:leaf=1:iterations=80": "expert search", "planner": "planner"}
    line = "The fix changes with skill: apprentice -2.70 pp; greedy -0.45 pp; search:leaf=1:iterations=80 -3.34 pp"
    table = Table(["bot", "effect"], [["greedy", "-0.45"]])
    report = Report("x", [], [Section("Search", [table], findings=[line])], summary=[line])
    report.overview = Figure("o.png", b"", "Each variant's change in greedy's win rate")
    played = _players_named(report, names)
    assert played == {"greedy", "search:leaf=1:iterations=80"}
    report.name_players(names, played)
    assert (
        report.summary[0]
        == report.sections[0].findings[0]
        == ("The fix changes with skill: apprentice -2.70 pp; greedy heuristic -0.45 pp; expert search -3.34 pp")
    )
    assert table.rows == [["greedy", "-0.45"]]
    assert report.overview.caption == "Each variant's change in greedy heuristic's win rate"
    assert report.appendix[-1].rows == [
        ["greedy heuristic", "greedy"],
        ["expert search", "search:leaf=1:iterations=80"],
    ]


def test_a_bot_named_by_an_adjective_is_renamed_only_where_it_names_a_player() -> None:
    """Golem's bot ``balanced``: "the seats are not balanced" is a verdict, not a player (it read "not balanced
    heuristic (all three lines)" in the sample report)."""
    from simulate.registry import make

    names = make("golem").info.bot_names
    verdict = "seat 1 wins 36.9%; the seats are not balanced (Wald chi-square 23.3); the seat is balanced"
    assert people_words(verdict, names) == verdict
    assert people_words("differs at balanced; balanced > books", names) == (
        f"differs at {names['balanced']}; {names['balanced']} > {names['books']}"
    )


def test_a_component_whose_name_says_its_kind_is_not_named_twice() -> None:
    from types import SimpleNamespace

    from analysis.report.components import _named

    assert _named(SimpleNamespace(kind="artifact", component="artifact_3")) == "artifact_3"
    assert _named(SimpleNamespace(kind="book", component="B12")) == "book B12"
    assert _named(SimpleNamespace(kind="objective", component=71)) == "objective 71"
