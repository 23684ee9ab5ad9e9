"""The balance report of one or several runs: verify, read, compute every section the data support."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from analysis.report.card_value import build_card_value_section, is_value_run
from analysis.report.components import build_component_section
from analysis.report.convergence import build_convergence_section
from analysis.report.feel import build_feel_section
from analysis.report.metrics import build_metrics_section, design_answer, metric_columns
from analysis.report.model import MAX_ANSWERS, Figure, Report, Text
from analysis.report.outcomes import build_outcome_section
from analysis.report.profile import (
    build_ladder_section,
    build_profile_section,
    fair_at_strong_play,
    ladder_answer_lines,
    ladder_overview,
    profiled_columns,
    strongest_rungs,
)
from analysis.report.provenance import (
    base_rules_of,
    build_appendix,
    caution_lines,
    evidence_record,
    game_facts,
    replays_setups,
    rules_key,
)
from analysis.report.render import write_report
from analysis.report.seats import (
    SOLO_OPPONENT_SCORE,
    build_mirror_section,
    build_mixed_section,
    build_solo_section,
    build_win_rate_section,
    lineup_words,
    seat_headline,
    seat_overview,
)
from analysis.report.setups import build_setup_section
from analysis.report.strategies import build_strategy_section
from analysis.report.styles import STYLE_PREFIX, BestResponse, build_styles_section, style_words
from analysis.report.variants import build_variant_section
from analysis.run import check_runs, default_offsets, read_tables
from analysis.stats._util import mirror_mask
from analysis.stats.ladder import rung_order
from analysis.stats.strategies import strength_ratings
from simulate.integrity import Derive
from simulate.manifest import RunManifest

_SEAT_COLUMNS = ["game", "setup_id", "num_players", "seat", "bot", "score", "rank", "win"]

_GAME_COLUMNS = ["game", "setup_id", "num_players", "turns", "rounds", "end_reason"]


def compute_report(
    run_dirs: str | Path | Sequence[str | Path],
    title: str | None = None,
    *,
    command: str | None = None,
    alpha: float = 0.05,
    random_state: int | np.random.Generator | None = 0,
    checksums: bool = True,
    best_responses: Sequence[BestResponse] = (),
    derive: Derive | None = None,
) -> Report:
    """Verify the runs, compute every section the data support, and return the report unwritten. ``best_responses``
    (best responses to the apprentice an exploit search found, one a player count) join the section on its styles.

    Raises ``RunFormatError`` (one line, naming the file or directory) for bad input; see
    :func:`analysis.run.check_runs` (``derive``: the game's check of each run's rules and table).
    """
    checked = check_runs(run_dirs, checksums=checksums, derive=derive)
    # value runs (a card dealt once more to one seat) are paired with their baselines in their own section only
    value_runs = [m for m in checked if is_value_run(m)]
    manifests = [m for m in checked if not is_value_run(m)] or checked
    runs = [RunManifest.from_json(m) for m in manifests]  # the same runs, typed
    offset_list = default_offsets(runs)
    offsets = {r.run_id: o for r, o in zip(runs, offset_list, strict=True)}
    labels = {r.run_id: r.label for r in runs}
    if len(set(labels.values())) < len(labels):
        labels = {r.run_id: f"{r.label} ({r.run_id})" for r in runs}
    parts = sorted({p for r in runs for p in r.columns.score_parts})
    facts = game_facts(runs)
    turn_order = facts["turn_order_column"]
    profile_columns = profiled_columns(runs)
    seats = read_tables(
        manifests,
        "seats",
        [*_SEAT_COLUMNS, *parts, *([turn_order] if turn_order else []), *profile_columns],
        offset_list,
    )
    if turn_order:
        # the game draws its turn order at setup: "seat" in this report is the place in that order;
        # "table_seat" keeps the table position that the components table refers to
        seats["table_seat"] = seats["seat"]
        seats["seat"] = seats.pop(turn_order).astype(seats["seat"].dtype)
    metrics = facts["metrics"]
    unit = facts["score_unit"]
    needed = metric_columns(metrics)
    has_solo_score = all(SOLO_OPPONENT_SCORE in r.columns.games for r in runs)
    solo_score = [SOLO_OPPONENT_SCORE] if has_solo_score else []
    games = read_tables(manifests, "games", list(dict.fromkeys([*_GAME_COLUMNS, *needed, *solo_score])), offset_list)
    rng = np.random.default_rng(random_state) if not isinstance(random_state, np.random.Generator) else random_state
    checked_runs = [RunManifest.from_json(m) for m in checked]
    appendix = build_appendix(checked_runs, command, alpha)
    cautions = [caution_lines(runs)]

    # Replays of a setup are not independent games: setup-design runs feed the setup-variance
    # section, and the other sections only when there is nothing else. Runs under changed rule
    # options are compared with their baseline in their own section, never pooled.
    base_rules = base_rules_of(runs)
    variants = [r for r in runs if rules_key(r) != base_rules]
    same_rules = [r for r in runs if rules_key(r) == base_rules]
    independent_ids = {r.run_id for r in same_rules if not replays_setups(r.design)} or {r.run_id for r in same_rules}
    independent = [m for m, r in zip(manifests, runs, strict=True) if r.run_id in independent_ids]
    independent_runs = [r for r in runs if r.run_id in independent_ids]
    if not any(not replays_setups(r.design) for r in same_rules):
        cautions.append(
            "Every run replays its setups, so the sections other than setup variance treat replays as "
            "independent games: their intervals are too narrow. Add runs with one game per setup."
        )
    if len(independent) == len(manifests):
        base_seats, base_games = seats, games
    else:
        base_seats = seats[seats["run_id"].isin(independent_ids).to_numpy()]
        base_games = games[games["run_id"].isin(independent_ids).to_numpy()]
    mirror_all = mirror_mask(seats[["game", "bot"]])
    # solo games (one seat against the game's automaton) have no seats to compare: their own section
    components = build_component_section(base_seats, base_games, independent_runs, offsets, alpha)
    solo = (base_seats["num_players"] == 1).to_numpy()
    solo_seats = base_seats[solo]
    base_seats = base_seats[~solo]
    mirror = mirror_mask(base_seats[["game", "bot"]])

    # every answer in the game's own currency: win share for the race games, net chips for golem-poker
    outcome = facts.get("outcome", "win")
    outcome_unit = unit if outcome == "score" else None
    strategy_section, ratings = build_strategy_section(base_seats, alpha, outcome_unit)
    styles_section = build_styles_section(base_seats, alpha, best=best_responses)
    mixed_seats = base_seats[~mirror]
    if outcome_unit is not None:  # rungs rated in the game's currency where bots met
        score_rated = strength_ratings(base_seats[["game", "bot", "score"]], alpha, outcome)
        ratings = ratings if score_rated is None else score_rated
    # the ladder's rungs in order of measured strength (ratings from the games between them) where the
    # study has such games, else as the game declares them
    order = rung_order(facts.get("skill_ladder", ()), ratings)
    rungs = tuple(order["bot"])
    strongest = strongest_rungs(base_seats, mirror, rungs)
    ladder, ladder_answers = ladder_answer_lines(
        base_seats, mirror, order, alpha, outcome, facts.get("outcome_precision")
    )
    mirror_section, mirror_results = build_mirror_section(base_seats, mirror, alpha, rng, unit, strongest)
    mixed_section, mixed_result = build_mixed_section(base_seats, mirror, alpha, rng, unit)
    win_rate_section = build_win_rate_section(seats, labels, alpha)
    if turn_order:
        win_rate_section.items.insert(
            0,
            Text(
                f"This game draws its turn order at setup: a seat in this report is a place in the first "
                f"round's turn order (column {turn_order}, 1 = first to act), not a place at the table."
            ),
        )
    ladder_section = build_ladder_section(
        base_seats, mirror, order, alpha, ladder, ladder_answers, outcome_unit, facts.get("outcome_precision")
    )
    on_ladder = ladder_answers[ladder_answers["num_rungs"] >= 2] if len(ladder_answers) else ladder_answers
    if outcome_unit is not None:  # the seat answer in the game's currency, even from a single rung
        on_ladder = ladder_answers
    solo_section = build_solo_section(solo_seats, base_games[base_games["num_players"] == 1], alpha)
    feel_section = build_feel_section(
        independent,
        offsets,
        base_seats,
        base_games,
        mixed_seats,
        rungs,  # in order of measured strength: the headline lineup and the two closest strong rungs
        ratings,
        bool(turn_order),
        unit,
        alpha,
        rng,
        facts.get("playing_time"),
        race=facts.get("outcome", "win") == "win",  # a game scored in chips is no race to finish first
        round_word=facts.get("round_word", "round"),
    )
    setup_section = build_setup_section(seats, same_rules, offsets, alpha, unit)
    variant_section = build_variant_section(
        games, seats, runs, metrics, labels, alpha, outcome_unit, facts.get("rule_words")
    )
    value_section = build_card_value_section(manifests, value_runs, facts.get("skill_ladder", ()), alpha)
    sections = [
        win_rate_section,
        build_profile_section(seats, profile_columns, facts.get("profile_forced", ())),
        ladder_section,
        feel_section,
        solo_section,
        mirror_section,
        mixed_section,
        setup_section,
        strategy_section,
        styles_section,
        value_section,
        components,
        build_outcome_section(games, seats, mirror_all, labels, alpha, unit),
        build_metrics_section(games, metrics, labels, alpha),
        variant_section,
        build_convergence_section(base_seats, mirror, mirror_results, mixed_result, alpha),
    ]
    if len(independent) < len(same_rules):
        note = Text(
            "Setup-design runs (each setup replayed) are left out of this section: their replays are not "
            "independent games. They feed the setup-variance section."
        )
        for section in (mirror_section, mixed_section, components):
            if section is not None:
                section.items.insert(1, note)
    if variants:
        note = Text(
            f"Runs under changed rule options ({', '.join(r.label for r in variants)}) are left out of this "
            "section; see Rule options side by side."
        )
        for section in (mirror_section, mixed_section, components, strategy_section):
            if section is not None:
                section.items.insert(1, note)
    # the first screen: the game's design measures and length, then fairness (at strong play, with its class,
    # when the study climbed a skill ladder), the setup, strategies, rules, solo play and components
    fairness = [fair_at_strong_play(ladder_answers, order, outcome_unit)] if len(on_ladder) else None
    design = design_answer(base_games, independent_runs, metrics, facts.get("design_measures", ()), strongest)
    summary = [design] if design else []
    summary += [
        a
        for s in (
            mirror_section or mixed_section,
            value_section if value_section is not None else components,  # the card question on the first screen
            styles_section or strategy_section,  # is there a dominant strategy (styles), else which bot is strongest
            setup_section,
            variant_section,
            solo_section,
        )
        if s is not None
        for a in (fairness if fairness and s is (mirror_section or mixed_section) else s.answers)
    ]
    if feel_section is not None:  # how the game plays next to fairness; skill against luck after the rest
        at = summary.index(fairness[0]) + 1 if fairness and fairness[0] in summary else len(summary[:1])
        summary[at:at] = feel_section.answers[:1]
        summary += feel_section.answers[1:]
    if styles_section is not None and strategy_section is not None:
        summary += strategy_section.answers
    overview = None
    if len(on_ladder):
        overview = ladder_overview(ladder, ladder_answers, outcome_unit)
    elif mirror_results:
        table, _, chosen = seat_headline(mirror_results, {})  # the most games per player count: the narrowest
        overview = seat_overview(table, lineup_words(chosen, strongest))
    elif mixed_result is not None:
        overview = seat_overview(mixed_result.table, "mixed bots rotated through the seats")
    elif solo_section is not None:
        overview = next(item for item in solo_section.items if isinstance(item, Figure))
    game = runs[0].title
    # the first screen names players as a designer would; the appendix keeps the bot specs the runs played
    names = dict(facts.get("bot_names") or {})
    played = set(seats["bot"].astype(str).unique())
    names |= {spec: style_words(spec) for spec in sorted(played) if spec.startswith(STYLE_PREFIX) and spec not in names}
    report = Report(
        title or f"{game}: balance report",
        appendix,
        [s for s in sections if s is not None],
        summary=summary[:MAX_ANSWERS],
        overview=overview,
        caution=" ".join(c for c in cautions if c),
        evidence=evidence_record(checked_runs, command),
    )
    report.name_players(names, played)
    return report


def build_report(
    run_dirs: str | Path | Sequence[str | Path],
    out_dir: str | Path,
    title: str | None = None,
    *,
    command: str | None = None,
    alpha: float = 0.05,
    random_state: int | np.random.Generator | None = 0,
) -> Path:
    """Build the balance report of one or several runs into ``out_dir``; returns ``out_dir/report.html``.

    Writes ``report.md`` with its PNG plots and ``report.html`` (self-contained). ``command`` is
    printed in the report as the way to reproduce it. Runs are verified first (completeness,
    row counts, checksums); bad input raises ``RunFormatError`` with a one-line message naming
    the file or directory, before anything is written.

    Examples
    --------
    >>> build_report(["runs/c2", "runs/c3"], "reports/century-2-3p")  # doctest: +SKIP
    PosixPath('reports/century-2-3p/report.html')
    """
    report = compute_report(run_dirs, title, command=command, alpha=alpha, random_state=random_state)
    return write_report(report, out_dir)
