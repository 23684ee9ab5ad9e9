"""What a card is worth: paired value designs played and compared (``golem value``, the study's component section).

A value design plays the same games (master seed, game index) as printed and with one more copy of a component
dealt at setup to the seat of the lineup's first bot (the game's ``gift`` rule option; the seat moves round the
table with the seat rotation), for each component, player count and lineup asked for. Identical copies are
valued once, as a group. A what-if (``edits``: the card's cost or reward changed) plays the same design on the
edited data as well, and the change of the value is paired per game too (``docs/card-value.md``). With ``refit``
(``--refit-apprentice``) the apprentice playing each data folder is one fitted on it
(:mod:`simulate.orchestration.refit`: the edited arm's data refitted in place, a ``cards`` folder's refit read from
the cache), and the answer says which apprentice played each arm and at which skill it was measured.

Examples
--------
>>> res = card_value(ValueDesign("century", ("M04",), (2,), ("greedy",), num_games=2000))  # doctest: +SKIP
>>> res.verdicts[["component", "diff", "adj_low", "adj_high", "verdict"]]  # doctest: +SKIP
"""

from __future__ import annotations

import math
import os
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, NamedTuple

import pandas as pd

from analysis.experiment import skill_head
from analysis.stats.card_value import (
    adjust_by_quantity,
    change_sentence,
    contrast_effects,
    dominated_cards,
    holder_quantities,
    implied_prices,
    measured_value_for_price,
    value_effects,
    value_for_price_sentence,
    value_sentence,
    value_verdicts,
)
from simulate.apprentice_fit import SEARCH_SKILL, manifest_fit
from simulate.gamekit import value_for_cost_facts
from simulate.lineup import LineupError, parse_lineup
from simulate.orchestration.refit import (
    RefitError,
    RefitResult,
    RefitSettings,
    check_refit,
    refit_apprentice,
    refit_into,
)
from simulate.registry import make
from simulate.runformat import read_manifest, read_table
from simulate.runner import RunSpec, check_workers, run
from simulate.variants import Variant, VariantError, write_variant

__all__ = [
    "CardValueError",
    "PriceResult",
    "ValueDesign",
    "ValueResult",
    "card_value",
    "component_groups",
    "edit_settings",
    "ladder_lineups",
    "price_frames",
    "price_tables",
    "price_value",
    "price_value_lines",
    "value_answer",
]


class CardValueError(ValueError):
    """A value question that cannot be played; the message is one line."""


@dataclass(frozen=True)
class ValueDesign:
    """What a value question plays."""

    game: str
    components: tuple[str, ...] = ()
    """Component ids to value (any copy of a group stands for it); empty: every component of a valued kind."""
    player_counts: tuple[int, ...] = (2,)
    lineups: tuple[str, ...] = ("greedy",)
    """Each a ``--bots`` text: one bot (a mirror match) or one per seat; the first bot holds the card."""
    num_games: int = 2000
    """Paired games per component, player count and lineup."""
    seed: int = 0
    edits: tuple[tuple[str, str], ...] = ()
    """What-if: (``cost`` or ``reward``, new value) of the one component valued."""
    alpha: float = 0.05
    cards: str | None = None
    """Data folder (default: the shipped data)."""
    refit: RefitSettings | None = None
    """Play every data folder (printed, edited) with an apprentice refitted on it, with these settings; None: the
    weights each folder holds."""


class ValueResult(NamedTuple):
    """A value question's answers, by name."""

    groups: pd.DataFrame
    """:func:`component_groups` of the components valued."""
    effects: pd.DataFrame
    """Every quantity's paired effect (``analysis.stats.card_value.adjust_by_quantity`` rows) with ``num_players``,
    ``lineup``, ``text``, ``ids``, ``design``: ``gift`` (against the game as printed), ``gift vs S1`` (against the
    gift of the game's ``value_reference``, a plain card: the value beyond that of any card), and for a what-if
    ``gift, edited``, ``gift, edited vs S1`` and ``change`` (edited minus printed value)."""
    verdicts: pd.DataFrame
    """The holder-win rows of ``effects`` with ``verdict`` and ``more_games``."""
    seconds: float
    skill: tuple[str, ...] = ()
    """Sentences on the skill the answers were measured at: each lineup's bots and their rungs, and for a lineup
    with a learned player, which apprentice played each data folder (fitted or refitted on it, or on other data:
    then the answer holds at the skill of search only)."""


def component_groups(game_name: str, cards: str | None = None) -> pd.DataFrame:
    """The game's components grouped by identical text: ``component`` (the first id of a group), ``ids`` (every id,
    comma-separated), ``copies``, ``kind``, ``text``, ``deck`` and ``design`` (the value design of its kind, ``""``
    when it has none). A game without a component table raises :class:`CardValueError`."""
    game = make(game_name)
    if not game.info.component_kinds:
        raise CardValueError(f"{game.info.name} has no components to value (nothing a seat acquires and keeps)")
    components = game.component_table(game.load_data(Path(cards) if cards else None, {}))
    if components is None:
        kinds = ", ".join(game.info.component_kinds)
        raise CardValueError(f"{game.info.name}: no value design for its components ({kinds}) yet")
    table = pd.DataFrame(components)
    designs = game.info.value_designs
    rows = []
    for (kind, _same), part in table.groupby(["kind", "same"], sort=False):
        ids = part["id"].tolist()
        first = part.iloc[0]
        design = "gift" if kind in designs else ""
        rows.append([ids[0], ", ".join(ids), len(ids), kind, first["text"], first["deck"], design])
    return pd.DataFrame(rows, columns=["component", "ids", "copies", "kind", "text", "deck", "design"])


def edit_settings(
    game_name: str, groups: pd.DataFrame, component: str, edits: tuple[tuple[str, str], ...]
) -> list[tuple[str, str]]:
    """Value settings (``simulate.variants`` paths, from the game's ``value_edits``) of a what-if on ``component``:
    each of its copies changed."""
    game = make(game_name)
    row = groups[groups["ids"].str.split(", ").apply(lambda ids: component in ids)]
    if row.empty:
        raise CardValueError(f"unknown component '{component}'")
    kind = str(row.iloc[0]["kind"])
    out = []
    for what, value in edits:
        path = game.info.value_edits.get((kind, what))
        if path is None:
            can = ", ".join(f"--{w} of a {k} card" for k, w in game.info.value_edits) or "none"
            raise CardValueError(
                f"--{what}: a {kind} card has no {what} to change (what-ifs of {game.info.name}: {can})"
            )
        text = str(row.iloc[0]["text"])
        if kind == "merchant" and what == "cost" and "->" not in text:  # only a trade ("2Y -> 1T") pays an input
            raise CardValueError(
                f"--cost: {component} ({text}) costs nothing to play; only a trade card has a cost (try --reward)"
            )
        if kind == "merchant" and what == "reward" and text.startswith("upgrade"):
            path = path.rsplit(".", 1)[0] + ".upgrades"
        out += [(path.format(id=cid), value) for cid in row.iloc[0]["ids"].split(", ")]
    return out


def _check(design: ValueDesign, groups: pd.DataFrame) -> pd.DataFrame:
    """The groups to value; raises :class:`CardValueError` before anything is played."""
    game = make(design.game)
    for n in design.player_counts:
        if not game.info.min_players <= n <= game.info.max_players:
            raise CardValueError(
                f"{game.info.name} takes {game.info.min_players}-{game.info.max_players} players, not {n}"
            )
        for lineup in design.lineups:
            try:
                parse_lineup(game, lineup.split(","), n)
            except LineupError as e:
                raise CardValueError(str(e)) from None
    if design.num_games < 2:
        raise CardValueError(f"--games must be at least 2, not {design.num_games}")
    if design.refit is not None:
        entries = [parse_lineup(game, lineup.split(","), n) for n in design.player_counts for lineup in design.lineups]
        try:
            check_refit(game.info.name, [[e.to_json() for e in lineup] for lineup in entries])
        except RefitError as e:
            raise CardValueError(str(e)) from None
    valued = groups[groups["design"] != ""]
    if valued.empty:
        raise CardValueError(f"{game.info.name}: no component kind has a value design yet")
    if not design.components:
        if design.edits:
            raise CardValueError("a what-if (--cost, --reward) changes one component: name it")
        return valued
    chosen = []
    for cid in design.components:
        hit = groups[groups["ids"].str.split(", ").apply(lambda ids, c=cid: c in ids)]
        if hit.empty:
            known = ", ".join(groups["component"].head(6))
            raise CardValueError(f"unknown component '{cid}' of {game.info.name} (e.g. {known})")
        if hit.iloc[0]["design"] == "":
            kinds = ", ".join(sorted(valued["kind"].unique()))
            raise CardValueError(
                f"{cid} is a {hit.iloc[0]['kind']} card: no causal value design for its kind (valued: {kinds}); "
                f"'golem value {game.info.name} --price' shows its value for cost, docs/card-value.md the what-if that "
                "answers it"
            )
        chosen.append(hit.index[0])
    if design.edits and len(set(chosen)) != 1:
        raise CardValueError("a what-if (--cost, --reward) changes one component: name only it")
    return groups.loc[list(dict.fromkeys(chosen))]


def _read(run_dir: Path) -> pd.DataFrame:
    games = read_table(run_dir, "games", ["game", "num_players", "rotation", "rounds"])
    seats = read_table(run_dir, "seats", ["game", "seat", "score", "win"])
    return holder_quantities(games, seats)


def card_value(
    design: ValueDesign,
    out: str | Path | None = None,
    workers: int | None = None,
    progress: bool = False,
    log: Callable[[str], None] | None = None,
) -> ValueResult:
    """Play and compare the value design of every component, player count and lineup of ``design``.

    Runs go to ``out`` (kept, one run directory per arm) or a temporary folder. Raises :class:`CardValueError`
    (one line) before playing when the question cannot be played.
    """
    started = time.perf_counter()
    check_workers(workers)
    groups = component_groups(design.game, design.cards)
    chosen = _check(design, groups)
    game = make(design.game)
    option = next(iter(game.info.value_designs.values()))
    reference = [r for r in [game.info.value_reference] if r and r not in set(chosen["component"])]
    with tempfile.TemporaryDirectory(prefix="golem-value-") as tmp:
        root = Path(out) if out is not None else Path(tmp)
        folders: dict[str, str | None] = {"printed": design.cards}
        if design.edits:
            settings = edit_settings(design.game, groups, str(chosen.iloc[0]["component"]), design.edits)
            try:
                write_variant(game, Variant("edited", tuple(settings)), root / "data-edited", design.cards)
            except VariantError as e:
                raise CardValueError(str(e)) from None
            folders["edited"] = str(root / "data-edited")
            edited_text = component_groups(design.game, folders["edited"]).set_index("component")["text"]
        refits = _refit(design, folders, workers, progress, log) if design.refit is not None else {}
        fits: dict[tuple[str, str], dict[str, Any]] = {}
        frames, contrasts = [], []
        for n in design.player_counts:
            for lineup in design.lineups:
                entries = parse_lineup(game, lineup.split(","), n)
                q: dict[tuple[str, str], pd.DataFrame] = {}
                for data_name, folder in folders.items():
                    arms = [("baseline", {})] + [(c, {option: c}) for c in [*chosen["component"], *reference]]
                    for arm, rules in arms:
                        run_dir = root / f"p{n}-{_slug(lineup)}-{data_name}-{_slug(arm)}"
                        spec = RunSpec(
                            game=design.game,
                            num_players=n,
                            num_games=design.num_games,
                            master_seed=design.seed,
                            lineup=entries,
                            chunk_size=max(200, min(20_000, math.ceil(design.num_games / (2 * (workers or 2))))),
                            rules=dict(rules),
                            cards=folder,
                        )
                        command = (
                            f"golem simulate {design.game} -p {n} -n {design.num_games} --bots {lineup} "
                            f"--seed {design.seed}"
                            + (f" --cards {folder}" if folder else "")
                            + "".join(f" --rule {k}={v}" for k, v in rules.items())
                        )
                        run(spec, run_dir, workers=workers, overwrite=True, progress=progress, command=command)
                        q[(data_name, arm)] = _read(run_dir)
                        record = manifest_fit(read_manifest(run_dir))
                        if record is not None:
                            fits.setdefault((data_name, lineup), record)
                    if log is not None:
                        log(f"{n} players, {lineup}, {data_name}: {len(arms)} runs of {design.num_games:,} games")
                for data_name in folders:
                    effects = value_effects(
                        q[(data_name, "baseline")],
                        {c: q[(data_name, c)] for c in chosen["component"]},
                        design.alpha,
                    )
                    design_name = "gift" if data_name == "printed" else "gift, edited"
                    frames.append(effects.assign(num_players=n, lineup=lineup, design=design_name))
                    for ref in reference:  # the value beyond that of a plain card, paired on the same games
                        relative = value_effects(
                            q[(data_name, ref)], {c: q[(data_name, c)] for c in chosen["component"]}, design.alpha
                        )
                        frames.append(relative.assign(num_players=n, lineup=lineup, design=f"{design_name} vs {ref}"))
                if design.edits:
                    c = str(chosen.iloc[0]["component"])
                    change = contrast_effects(
                        q[("printed", "baseline")],
                        q[("printed", c)],
                        q[("edited", "baseline")],
                        q[("edited", c)],
                        design.alpha,
                    )
                    contrasts.append(change.assign(component=c, num_players=n, lineup=lineup, design="change"))
    effects = adjust_by_quantity(pd.concat(frames + contrasts, ignore_index=True), design.alpha)
    info = chosen.set_index("component")[["text", "ids", "kind"]]
    effects = effects.join(info, on="component")
    if design.edits:
        rows = effects["design"].str.startswith("gift, edited")
        effects.loc[rows, "text"] = effects.loc[rows, "component"].map(edited_text)
    skill = []
    for lineup in design.lineups:
        skill.append(skill_head(game.info.skill_ladder, game.info.bot_names, lineup.split(",")) + ".")
        skill += [_skill_sentence(d, lineup, fits[(d, lineup)], refits.get(d)) for d in folders if (d, lineup) in fits]
    seconds = time.perf_counter() - started
    return ValueResult(chosen.reset_index(drop=True), effects, value_verdicts(effects), seconds, tuple(skill))


def _refit(
    design: ValueDesign,
    folders: dict[str, str | None],
    workers: int | None,
    progress: bool,
    log: Callable[[str], None] | None,
) -> dict[str, RefitResult]:
    """Give each data folder of ``folders`` an apprentice fitted on it (``design.refit``): the edited arm's, which
    this command wrote, refitted in place; the printed arm's (``design.cards`` or the shipped data) read from the
    refit cache (``folders`` updated to it) unless its own apprentice fits."""
    refits = {}
    for data_name, folder in folders.items():
        fit = refit_into if data_name == "edited" else refit_apprentice
        result = fit(
            design.game,
            folder,
            {},
            settings=design.refit,
            workers=workers or os.cpu_count() or 1,
            progress=progress or log is not None,  # a training's bars
            say=log or (lambda _: None),
        )
        folders[data_name] = None if folder is None and result.how == "covered" else str(result.folder)
        refits[data_name] = result
    return refits


def _skill_sentence(data_name: str, lineup: str, record: dict[str, Any], refit: RefitResult | None = None) -> str:
    """Which apprentice played an arm (``record``: its runs' fit record; ``refit``: the arm's refit, if any) and what
    its answer is worth: at the apprentice's skill when its fit covers the data, else at the skill of search only."""
    arm = "what-if" if data_name == "edited" else "value as printed"
    if record["covers"]:
        how = (
            f"refitted on its data (--refit-apprentice, cache key {refit.key[:12]})"
            if refit is not None and refit.how != "covered"
            else f"fitted on its data ({record['command'] or 'no command recorded'})"
        )
        return f"The {arm} with bot {lineup} was played by an apprentice {how}: that answer holds at its skill."
    what = ", ".join([*record["files_differ"], *record["files_unrecorded"], *record["rules_differ"]])
    return (
        f"The {arm} with bot {lineup} was played by an apprentice fitted on other data ({what or 'no provenance'} "
        f"differs from what it was fitted on): that answer was measured with an apprentice fitted on other data and "
        f"{SEARCH_SKILL}."
    )


def _slug(text: str) -> str:
    return "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in text)[:40]


def value_answer(result: ValueResult, design: ValueDesign) -> list[str]:
    """The answer in lines: one per component, player count and lineup (``value_sentence``); a what-if adds the
    printed value and the change with its interval."""
    lines = []
    eff = result.effects
    for component in result.groups["component"]:
        for n in design.player_counts:
            for lineup in design.lineups:
                if not design.edits:
                    lines.append(value_sentence(eff, component, n, lineup))
                    continue
                what = ", ".join(f"its {k} were {v}" for k, v in design.edits)
                lines.append(f"What if {what}: " + value_sentence(eff, component, n, lineup, "gift, edited"))
                lines.append("As printed: " + value_sentence(eff, component, n, lineup, "gift"))
                change = eff[
                    (eff["component"] == component)
                    & (eff["num_players"] == n)
                    & (eff["lineup"] == lineup)
                    & (eff["design"] == "change")
                ]
                lines.append(change_sentence(change))
    return lines + list(result.skill)


def ladder_lineups(game_name: str) -> tuple[str, ...]:
    """The rungs of the game's skill ladder a value question can afford: all but ``random`` and the search rungs."""
    ladder = make(game_name).info.skill_ladder
    rungs = tuple(r for r in ladder if r != "random" and not r.startswith("search"))
    if not rungs:
        raise CardValueError(f"{game_name} has no affordable ladder rung")
    return rungs


def price_frames(game_name: str, cards: str | None = None) -> tuple[pd.Series | None, pd.DataFrame, pd.DataFrame]:
    """Value for cost, no games played: the implied prices of the game's cost units and the cards of its
    ``priced_kinds`` against them (``analysis.stats.card_value.implied_prices``; None and an empty table when no
    card prints a cost to fit), and the strictly dominated cards (``dominated_cards``), each with ``text``."""
    game = make(game_name)
    components = game.component_table(game.load_data(Path(cards) if cards else None, {}))
    if components is None:
        raise CardValueError(f"{game.info.name} has no component table for a value-for-cost fit yet")
    table = pd.DataFrame(components)
    table = table.rename(columns={"id": "component"})
    text = table.set_index("component")["text"]
    priced_rows = table[table["kind"].isin(game.info.priced_kinds)]
    prices: pd.Series | None = None
    priced = pd.DataFrame(columns=["component", "text", "residual", "price"])
    if not priced_rows.empty:
        prices, priced = implied_prices(priced_rows)
    dominated = dominated_cards(table)
    dominated["text"] = dominated["component"].map(text)
    dominated["dominated_by_text"] = dominated["dominated_by"].map(
        lambda ids: "; ".join(f"{i} ({text[i]})" for i in ids.split(", "))
    )
    return prices, priced, dominated


def price_tables(game_name: str, cards: str | None = None, show: int = 5) -> list[str]:
    """:func:`price_frames` as lines of text: the prices, the ``show`` cards furthest above and below them, and
    every strictly dominated card."""
    prices, priced, dominated = price_frames(game_name, cards)
    if prices is None and make(game_name).info.measured_price:
        lines = []  # its value for cost is fitted on measured values (price_value)
    elif prices is None:
        lines = [
            f"No implied prices: no {game_name} card prints a cost its VP could be fitted against "
            "(docs/card-value.md says why)"
        ]
    else:
        game = make(game_name)
        kinds = " and ".join(game.info.priced_kinds)
        lines = [f"Implied price per {game.info.price_unit} (VP, least squares over the {kinds} cards): "]
        lines[0] += ", ".join(f"{c} {p:.2f}" for c, p in prices.items())
        lines.append(f"Best buys (VP above the price of their cost; 'above': beyond 2 residual SDs, of {len(priced)}):")
        for r in priced.head(show).itertuples():
            lines.append(f"  {r.component} ({r.text}): {r.residual:+.2f} VP {r.price}".rstrip())
        lines.append("Worst buys:")
        for r in priced.tail(show).iloc[::-1].itertuples():
            lines.append(f"  {r.component} ({r.text}): {r.residual:+.2f} VP {r.price}".rstrip())
    lines.append(f"Strictly dominated ({len(dominated)}: another card does at least as much for no more):")
    for r in dominated.itertuples():
        lines.append(f"  {r.component} ({r.text}) by {r.dominated_by_text}")
    return lines


class PriceResult(NamedTuple):
    """Value for cost from measured values (:func:`price_value`), by name."""

    value: ValueResult
    """The value design played on every component of the priced kind."""
    fit: pd.DataFrame
    """The line of value on price (``analysis.stats.card_value.value_for_price`` ``fit``) per ``num_players`` and
    ``lineup``."""
    cards: pd.DataFrame
    """Each component against the line (``value_for_price`` ``cards``: ``component``, ``text``, ``diff``, ``se``,
    ``adj_low``, ``adj_high``, ``verdict``, the price columns, ``fitted``, ``residual``, ``z``, ``pvalue_adj``,
    ``price``) per ``num_players`` and ``lineup``."""
    units: dict[str, str]
    """Price column -> unit in words."""
    kind: str
    """The priced kind, as a name in text ("Book")."""


def price_value(
    design: ValueDesign,
    out: str | Path | None = None,
    workers: int | None = None,
    progress: bool = False,
    log: Callable[[str], None] | None = None,
) -> PriceResult:
    """Value for cost where no printed VP answers it (``GameInfo.measured_price``): every component of the priced
    kind valued by :func:`card_value` (``design``'s player counts, lineups and games), then its measured value
    fitted on its printed price, per player count and lineup. Raises :class:`CardValueError` (one line) before
    playing when the question cannot be played."""
    game = make(design.game)
    if not game.info.measured_price:
        raise CardValueError(
            f"{game.info.name} fits no value on price from measured values (see 'golem value --price')"
        )
    kind = game.info.measured_price["kind"]
    if design.components or design.edits:
        raise CardValueError(
            f"--price values every {kind} of {game.info.name}: name no component and give no --cost/--reward"
        )
    groups = component_groups(design.game, design.cards)
    chosen = tuple(groups.loc[groups["kind"] == kind, "component"])
    facts = value_for_cost_facts(game, game.load_data(Path(design.cards) if design.cards else None, {}))
    result = card_value(replace(design, components=chosen), out, workers=workers, progress=progress, log=log)
    gift = result.verdicts[result.verdicts["design"] == "gift"]
    fit, cards = measured_value_for_price(gift, facts, design.alpha)
    if fit.empty:
        raise CardValueError(f"too few {kind}s with a measured value to fit a line; play more --games")
    units = {c: u for c, u in game.info.measured_price.items() if c != "kind"}
    return PriceResult(result, fit, cards, units, kind.capitalize())


def price_value_lines(res: PriceResult, show: int = 5) -> list[str]:
    """:func:`price_value` in lines, per player count and lineup: the line of value on price with intervals, the
    components detectably off it, and the ``show`` furthest above and below."""
    lines = []
    for (n, lineup), cards in res.cards.groupby(["num_players", "lineup"], sort=True):
        fit = res.fit[(res.fit["num_players"] == n) & (res.fit["lineup"] == lineup)]
        games = int(cards["num_games"].iloc[0])
        lines.append(
            f"Value for cost, {n} players, {lineup} ({games:,} paired games a {res.kind}; a {res.kind}'s measured "
            f"value on its printed price, weighted least squares, 95% intervals): "
            + value_for_price_sentence(fit, res.units, res.kind)
        )
        off = cards[cards["price"] != ""]
        family = f"Holm over {len(cards)} {res.kind}s"
        if off.empty:
            lines.append(f"No {res.kind} is detectably above or below its price's line ({family}).")
        else:
            lines.append(f"Detectably off its price's line ({family}):")
            lines += [f"  {_priced(r)} ({r.price})" for r in off.itertuples()]
        lines.append(f"Furthest above the line (best buys, of {len(cards)}):")
        lines += [f"  {_priced(r)}" for r in cards.head(show).itertuples()]
        lines.append("Furthest below the line:")
        lines += [f"  {_priced(r)}" for r in cards.tail(show).iloc[::-1].itertuples()]
    return lines


def _priced(r: NamedTuple) -> str:
    return (
        f"{r.component} ({r.text}): {100 * r.diff:+.1f} pp ({100 * r.adj_low:+.1f} to {100 * r.adj_high:+.1f}), "
        f"its price's line {100 * r.fitted:+.1f}: {100 * r.residual:+.1f} pp"
    )
