"""Report section on card value: what a card is worth to the seat that holds it, from paired value designs.

A *value run* plays the same games as a baseline run (same game, players, lineup, master seed, games and design)
with one more copy of a card dealt at setup to the seat of the lineup's first bot (its manifest's ``rules``
hold ``gift = <card id>``; docs/card-value.md). The section pairs each value run with its baseline, reports each
card's effect on the holder's win share, score margin and the game's length with Holm-adjusted intervals, and
leads with the card of largest effect at the strongest rung played.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pandas as pd

from analysis.report.format import fmt_int, fmt_players
from analysis.report.model import Section, Table, Text
from analysis.run import read_tables
from analysis.stats.card_value import (
    PRECISION,
    adjust_by_quantity,
    dominated_cards,
    holder_quantities,
    implied_prices,
    measured_value_for_price,
    value_effects,
    value_for_price_sentence,
    value_sentence,
    value_verdicts,
)

GIFT_OPTION = "gift"
"""The rule option of a value run (a game with a value design declares it: Century, Golems; "none" in an ordinary
run)."""
VALUE_ANSWER_PREFIX = "What a card is worth (causal)"


def is_value_run(manifest: dict[str, Any]) -> bool:
    """Whether a run is a value run (a card dealt once more at setup to one seat)."""
    return str(manifest.get("rules", {}).get(GIFT_OPTION, "none")) != "none"


def _pair_key(m: dict[str, Any]) -> tuple:
    rules = {k: v for k, v in m.get("rules", {}).items() if k != GIFT_OPTION}
    return (
        m["game"],
        int(m["num_players"]),
        tuple(e["label"] for e in m["lineup"]),
        int(m["master_seed"]),
        int(m["num_games"]),
        str(sorted(m.get("design", {}).items())),
        str(sorted(rules.items())),
        str(sorted((k, v) for k, v in m.get("data", {}).get("files", {}).items())),
    )


def _quantities(m: dict[str, Any]) -> pd.DataFrame:
    games = read_tables([m], "games", ["game", "num_players", "rotation", "rounds"], [0])
    seats = read_tables([m], "seats", ["game", "seat", "score", "win"], [0])
    return holder_quantities(games, seats)


def _lineup(m: dict[str, Any]) -> str:
    labels = [e["label"] for e in m["lineup"]]
    return labels[0] if len(set(labels)) == 1 else ",".join(labels)


def card_value_effects(
    value_runs: Sequence[dict[str, Any]], baselines: Sequence[dict[str, Any]], alpha: float
) -> tuple[pd.DataFrame, list[dict[str, Any]]]:
    """The adjusted effects of every value run against its baseline (``simulate.orchestration.card_value`` columns:
    ``component``, ``text``, ``ids``, ``num_players``, ``lineup``, ``design``, the quantity columns), and the value
    runs that found no baseline."""
    base = {_pair_key(m): m for m in baselines}
    unpaired, read = [], {}
    reference: dict[tuple, pd.DataFrame] = {}  # the gift of the game's plain card, by pair key, where it was played
    for m in value_runs:
        key = _pair_key(m)
        if key in base and str(m["rules"][GIFT_OPTION]) == m.get("value_reference"):
            reference[key] = _quantities(m)
    # (card, players, lineup, design) -> [(baseline, variant)]: designs of one card at one rung on other games (a
    # screen and its confirmation) pool, each pair of games once
    pairs: dict[tuple[str, int, str, str], list[tuple[pd.DataFrame, pd.DataFrame]]] = {}
    for m in value_runs:
        key = _pair_key(m)
        if key not in base:
            unpaired.append(m)
            continue
        if key not in read:
            read[key] = _quantities(base[key])
        card = str(m["rules"][GIFT_OPTION])
        q = _quantities(m)
        cell = (card, int(m["num_players"]), _lineup(m))
        pairs.setdefault((*cell, "gift"), []).append((read[key], q))
        if key in reference and card != m.get("value_reference"):
            pairs.setdefault((*cell, f"gift vs {m['value_reference']}"), []).append((reference[key], q))
    if not pairs:
        return pd.DataFrame(), unpaired
    frames = [
        value_effects(*_stacked(parts, card), alpha).assign(num_players=n, lineup=lineup, design=design)
        for (card, n, lineup, design), parts in pairs.items()
    ]
    effects = adjust_by_quantity(pd.concat(frames, ignore_index=True), alpha)
    texts: dict[str, str] = {}
    for m in value_runs:
        texts.update(m.get("component_texts", {}))
    same: dict[str, list[str]] = {}
    for cid, text in texts.items():
        same.setdefault(text, []).append(cid)
    effects["text"] = effects["component"].map(lambda c: texts.get(c, "text not recorded"))
    effects["ids"] = effects["component"].map(lambda c: ", ".join(same.get(texts.get(c, ""), [c])))
    return effects, unpaired


def _stacked(parts: list[tuple[pd.DataFrame, pd.DataFrame]], card: str) -> tuple[pd.DataFrame, dict[str, pd.DataFrame]]:
    """Paired quantities of several designs of one card as one baseline and one variant table, each design's games
    under ids of their own (its game index offset past the designs before it)."""
    offset, bases, variants = 0, [], []
    for b, v in parts:
        bases.append(b.set_axis(b.index + offset))
        variants.append(v.set_axis(v.index + offset))
        offset += int(b.index.max()) + 1
    return pd.concat(bases), {card: pd.concat(variants)}


def _skill_levels(verdicts: pd.DataFrame, component: str, num_players: int, ladder: Sequence[str]) -> str:
    """Where a card's value holds: "; holds at apprentice and search" when every rung that valued it gives the same
    verdict, else each rung's verdict; "" when one rung valued it."""
    cell = verdicts[(verdicts["component"] == component) & (verdicts["num_players"] == num_players)]
    if len(cell) < 2:
        return ""
    cell = cell.assign(rung=cell["lineup"].map(lambda label: _rung(label, ladder))).sort_values("rung")
    if cell["verdict"].nunique() == 1:
        return f"; holds at {' and '.join(cell['lineup'])}"
    each = ", ".join(f"{r.verdict} at {r.lineup} ({100 * r.diff:+.1f} pp)" for r in cell.itertuples())
    return f"; differs with skill: {each}"


def _games_a_card(part: pd.DataFrame) -> str:
    """ "N paired games a card", or "N paired games a card (up to M for the cards confirmed after the screen)"."""
    low, high = int(part["num_games"].min()), int(part["num_games"].max())
    text = f"{fmt_int(low)} paired games a card"
    return text if low == high else f"{text} (up to {fmt_int(high)} for the cards confirmed after the screen)"


def _rung(lineup: str, ladder: Sequence[str]) -> int:
    return ladder.index(lineup) if lineup in ladder else -1


def build_card_value_section(
    manifests: Sequence[dict[str, Any]], value_runs: Sequence[dict[str, Any]], ladder: Sequence[str], alpha: float
) -> Section | None:
    """The section, or None without value runs; ``manifests`` are the runs a value run may be paired with."""
    if not value_runs:
        return None
    section = Section("What a card is worth")
    section.items.append(
        Text(
            "Each card is valued by a paired design (docs/card-value.md): the same games (master seed, game index) "
            "are played as printed and with one more copy of the card dealt at setup to the seat of the lineup's "
            "first bot, which moves round the table with the seat rotation. The difference in that seat's win share, "
            "score margin and the game's length is the card's causal value to its holder, at the skill level of the "
            "bots that played. Intervals are paired t intervals, Holm-adjusted over every card and player count of "
            f"the table (per quantity). A card whose interval is wider than ±{100 * PRECISION:g} pp and covers 0 is "
            "unresolved, with the games that would settle it. A card that changed no game of its sample gets the "
            "exact bound on the share of games it may still change (about 3.7 / games at 95%), each by up to a "
            f"whole win, not a zero-width interval: it is within ±{100 * PRECISION:g} pp only once that bound is."
        )
    )
    effects, unpaired = card_value_effects(value_runs, manifests, alpha)
    if unpaired:
        section.items.append(
            Text(f"{len(unpaired)} value runs have no baseline run of the same games and are left out.", "warn")
        )
    if effects.empty:
        return section
    verdicts = value_verdicts(effects[effects["design"] == "gift"])
    top_rung = max(verdicts["lineup"], key=lambda label: _rung(label, ladder))
    at_top = verdicts[verdicts["lineup"] == top_rung]
    detected = at_top[at_top["significant"]]
    pool = detected if len(detected) else at_top
    best = pool.loc[pool["diff"].abs().idxmax()]  # the largest effect either way: a card may cost its holder
    answer = value_sentence(effects, best["component"], int(best["num_players"]), top_rung)
    answer += _skill_levels(verdicts, best["component"], int(best["num_players"]), ladder)
    if not verdicts["significant"].any():
        answer = f"no card stands out at the precision reached; the largest: {answer}"
    counts = at_top.groupby("num_players")["verdict"].value_counts().unstack(fill_value=0)
    tally = "; ".join(
        f"{fmt_players(int(n))}: {int(row.get('worth', 0))} of {int(row.sum())} cards worth something detectable, "
        f"{int(row.get('unresolved', 0))} unresolved"
        for n, row in counts.iterrows()
    )
    section.answers.append(f"{VALUE_ANSWER_PREFIX}: {answer}.")
    section.items.append(
        Text(f"The card of largest value at the strongest rung played ({top_rung}): {answer}. {tally}.", "verdict")
    )
    section.findings.append(f"Card value ({top_rung}): {answer}.")
    for (n, lineup), part in verdicts.groupby(["num_players", "lineup"], sort=True):
        rows = []
        here = effects[(effects["num_players"] == n) & (effects["lineup"] == lineup)]
        cell = here[here["design"] == "gift"].set_index(["component", "quantity"])
        beyond = value_verdicts(here[here["design"] != "gift"]).set_index("component")
        for r in part.sort_values("diff", ascending=False).itertuples():
            margin = cell.loc[(r.component, "holder_margin")]
            length = cell.loc[(r.component, "length")]
            settle = f", {fmt_int(r.more_games)} more games" if r.verdict == "unresolved" else ""
            plain = "—"
            if r.component in beyond.index:
                b = beyond.loc[r.component]
                plain = f"{100 * b['diff']:+.1f} ({100 * b['adj_low']:+.1f} to {100 * b['adj_high']:+.1f})"
            rows.append(
                [
                    r.ids,
                    r.text,
                    f"{100 * r.diff:+.1f}",
                    f"{100 * r.adj_low:+.1f} to {100 * r.adj_high:+.1f}",
                    plain,
                    f"{margin['diff']:+.1f}",
                    f"{length['diff']:+.1f}",
                    f"{r.verdict}{settle}",
                ]
            )
        section.items.append(
            Table(
                [
                    "card (identical copies)",
                    "what it does",
                    "holder win (pp)",
                    "adjusted interval",
                    "beyond a plain card (pp)",
                    "margin (points)",
                    "length (rounds)",
                    "verdict",
                ],
                rows,
                f"{fmt_players(int(n))}, {lineup} mirror, {_games_a_card(part)}: "
                "one more "
                "copy dealt at setup, paired with the same games as printed; beyond a plain card: against the gift of "
                "the game's plain reference card on the same games, where the study played it.",
            )
        )
    facts = next((m["value_for_cost"] for m in value_runs if m.get("value_for_cost")), None)
    if facts:
        texts = pd.Series({c: t for m in value_runs for c, t in m.get("component_texts", {}).items()}, dtype=object)
        _add_measured_price_items(section, verdicts, facts, top_rung, alpha)
        _add_printed_price_items(section, facts, texts)
    return section


_PRICE_SHOW = 5
"""Cards shown at each end of a value-for-cost table (besides every card detectably off the line)."""


def _add_measured_price_items(
    section: Section, verdicts: pd.DataFrame, facts: dict[str, Any], top_rung: str, alpha: float
) -> None:
    """Value for cost from the measured values (``analysis.stats.card_value.measured_value_for_price``): each
    player count and lineup whose values cover enough cards of the priced kind gets the line in words and a table
    of the cards furthest above and below it; the strongest rung's line is a finding."""
    fits, cards = measured_value_for_price(verdicts, facts, alpha)
    if fits.empty:
        return
    units = {c: u for c, u in facts["measured_price"].items() if c != "kind"}
    kind = str(facts["measured_price"]["kind"]).capitalize()
    for (n, lineup), part in cards.groupby(["num_players", "lineup"], sort=True):
        fit = fits[(fits["num_players"] == n) & (fits["lineup"] == lineup)]
        line = value_for_price_sentence(fit, units, kind)
        where = f"{fmt_players(int(n))}, {lineup}"
        off = part[part["price"] != ""]
        family = f"Holm over {len(part)} {kind}s"
        named = ", ".join(f"{r.component} {r.price}" for r in off.itertuples()) or "none"
        section.items.append(
            Text(
                f"Value for cost ({where}): each {kind}'s measured value fitted on its printed price (weighted least "
                f"squares, 95% intervals): {line}. Detectably off the line ({family}): {named}."
            )
        )
        if lineup == top_rung:
            section.findings.append(f"Value for cost ({where}): {line}; off the line: {named}.")
        shown = pd.concat([off, part.head(_PRICE_SHOW), part.tail(_PRICE_SHOW)]).drop_duplicates("component")
        rows = [
            [
                r.component,
                r.text,
                " + ".join(f"{int(getattr(r, c))} {u}" for c, u in units.items() if getattr(r, c)) or "free",
                f"{100 * r.diff:+.1f} ({100 * r.adj_low:+.1f} to {100 * r.adj_high:+.1f})",
                f"{100 * r.fitted:+.1f}",
                f"{100 * r.residual:+.1f}",
                r.price or "—",
            ]
            for r in shown.sort_values("residual", ascending=False).itertuples()
        ]
        section.items.append(
            Table(
                [
                    "card",
                    "what it does",
                    "price",
                    "holder win (pp)",
                    "its price's line (pp)",
                    "above the line (pp)",
                    "off the line",
                ],
                rows,
                f"{where}: the {_PRICE_SHOW} {kind}s furthest above and below their price's line, and any detectably "
                f"off it ({family}, against each value's own measurement error).",
            )
        )


def _add_printed_price_items(section: Section, facts: dict[str, Any], texts: pd.Series) -> None:
    """Value for cost from the printed cards, no games played: the implied price of each unit of cost with the
    cards furthest above and below it (``analysis.stats.card_value.implied_prices``, where the game prints VP
    against a cost), and the strictly dominated cards (``dominated_cards``)."""
    cards = pd.DataFrame(facts["cards"])
    numbers = [c for c in cards.columns if c not in ("component", "kind")]
    cards[numbers] = cards[numbers].fillna(0)
    for column in ("upgrades", "vp"):
        if column not in cards:
            cards[column] = 0
    name = lambda cid: f"{cid} ({texts.get(cid, 'text not recorded')})"  # noqa: E731
    priced_kinds = list(facts.get("priced_kinds", []))
    priced_rows = cards[cards["kind"].isin(priced_kinds)]
    if not priced_rows.empty:
        costs = [c for c in priced_rows.columns if c.startswith("in_") and priced_rows[c].any()]
        prices, priced = implied_prices(priced_rows[["component", "vp", *costs]])
        unit = facts.get("price_unit", "unit of cost")
        listed = ", ".join(f"{c} {p:.2f}" for c, p in prices.items())
        far = priced[priced["price"] != ""]
        flagged = "; ".join(f"{name(r.component)} {r.residual:+.2f} VP ({r.price})" for r in far.itertuples())
        section.items.append(
            Text(
                f"Value for cost, printed (no games): the implied VP of a {unit} (least squares of a "
                f"{' or '.join(priced_kinds)} card's VP on what it costs) is {listed}. Beyond 2 residual standard "
                f"deviations of it: {flagged or 'none'}."
            )
        )
        shown = pd.concat([priced.head(_PRICE_SHOW), priced.tail(_PRICE_SHOW)]).drop_duplicates("component")
        section.items.append(
            Table(
                ["card", "what it does", "VP", "its cost's price (VP)", "above the price (VP)"],
                [
                    [r.component, texts.get(r.component, ""), f"{r.vp:g}", f"{r.fitted:.2f}", f"{r.residual:+.2f}"]
                    for r in shown.itertuples()
                ],
                f"The {_PRICE_SHOW} {' and '.join(priced_kinds)} cards furthest above and below the implied prices.",
            )
        )
    dominated = dominated_cards(cards)
    listed = "; ".join(f"{name(r.component)} by {r.dominated_by}" for r in dominated.itertuples())
    section.items.append(
        Text(
            f"Strictly dominated cards (another card of its kind pays no more and gives at least as much, printed): "
            f"{len(dominated)}{': ' + listed if listed else ''}."
        )
    )
