"""What a component is worth to the seat that holds it: paired effects of an intervention, per component.

A *value design* plays the same games (master seed, game index) twice: as printed (the baseline) and with
one intervention that favours one seat, the *holder* (e.g. one more copy of a card dealt to it at setup,
``docs/card-value.md``). The holder is the seat of the lineup's first entry, which moves round the table
with the seat rotation (seat ``(n - rotation) mod n``, 0-based), so no seat's advantage is mistaken for the
card's. A component's value is then the mean over games of the paired difference in the holder's win share,
its score margin and the game's length, with t intervals on the per-game differences
(:func:`analysis.stats.paired.effects_table`) and Holm's correction over every component of a table.

Examples
--------
>>> q0 = holder_quantities(games0, seats0)  # doctest: +SKIP
>>> value_effects(q0, {"M04": holder_quantities(games1, seats1)})  # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd
import statsmodels.api as sm
from scipy import stats

from analysis.stats._util import check_alpha, multiple_tests, require_columns
from analysis.stats.convergence import games_to_settle, more_games_text
from analysis.stats.paired import QUANTITY_COLUMNS, effect_confint, effects_table, pair_moments

__all__ = [
    "PRECISION",
    "VALUE_QUANTITIES",
    "adjust_by_quantity",
    "change_sentence",
    "contrast_effects",
    "dominated_cards",
    "holder_quantities",
    "implied_prices",
    "value_effects",
    "measured_value_for_price",
    "value_for_price",
    "value_for_price_sentence",
    "value_sentence",
    "value_verdicts",
]

VALUE_QUANTITIES = {
    "holder_win": ("holder win share", "rate"),
    "holder_margin": ("holder score margin", "points"),
    "length": ("game length", "rounds"),
}
"""The quantities of a value design: column -> (what it measures, unit)."""
PRECISION = 0.02
"""Half-width (win share) below which an undetected value is "within ±2 pp" rather than unresolved."""


def holder_quantities(games: pd.DataFrame, seats: pd.DataFrame) -> pd.DataFrame:
    """Per-game quantities of a value design, one row per game (indexed by ``game``).

    ``games`` needs ``game``, ``num_players``, ``rotation`` and ``rounds`` (or ``turns``); ``seats`` needs
    ``game``, ``seat`` (1-based), ``score`` and ``win``; one player count. Columns (:data:`VALUE_QUANTITIES`):
    ``holder_win`` (the holder's share of the win: 1, 0 or 1/j of a j-way tie), ``holder_margin`` (its score minus
    the mean of the other seats') and ``length`` (the game's rounds, or turns).
    """
    length = "rounds" if "rounds" in games.columns else "turns"
    require_columns(games, ["game", "num_players", "rotation", length], "games")
    require_columns(seats, ["game", "seat", "score", "win"], "seats")
    counts = games["num_players"].unique()
    if len(counts) != 1:
        raise ValueError(f"a value design compares one player count, found {sorted(counts.tolist())}")
    n = int(counts[0])
    g = games.sort_values("game")
    s = seats.sort_values(["game", "seat"])
    if len(s) != n * len(g) or not np.array_equal(s["game"].to_numpy()[::n], g["game"].to_numpy()):
        raise ValueError("seats table does not hold n rows for every game of the games table")
    win = s["win"].to_numpy(dtype=float).reshape(-1, n)
    score = s["score"].to_numpy(dtype=float).reshape(-1, n)
    holder = (n - g["rotation"].to_numpy(dtype=np.int64)) % n
    rows = np.arange(len(g))
    others = (score.sum(axis=1) - score[rows, holder]) / (n - 1)
    return pd.DataFrame(
        {
            "holder_win": win[rows, holder],
            "holder_margin": score[rows, holder] - others,
            "length": g[length].to_numpy(dtype=float),
        },
        index=pd.Index(g["game"].to_numpy(), name="game"),
    )


def _info() -> pd.DataFrame:
    rows = [[name, metric, "holder", unit] for name, (metric, unit) in VALUE_QUANTITIES.items()]
    return pd.DataFrame(rows, columns=QUANTITY_COLUMNS)


def _paired(baseline: pd.DataFrame, variant: pd.DataFrame, alpha: float) -> pd.DataFrame:
    if not baseline.index.equals(variant.index):
        raise ValueError("baseline and variant are not the same games; pair runs of the same seeds and design")
    cols = list(VALUE_QUANTITIES)
    return effects_table(_info(), pair_moments(baseline[cols].to_numpy(float), variant[cols].to_numpy(float)), alpha)


def value_effects(baseline: pd.DataFrame, variants: Mapping[str, pd.DataFrame], alpha: float = 0.05) -> pd.DataFrame:
    """The paired effect of each variant (component id -> :func:`holder_quantities` of the same games with the
    intervention) against ``baseline`` on every quantity.

    Returns one row per component and quantity: ``component``, the ``analysis.stats.paired`` columns
    (``quantity``, ``metric``, ``subject``, ``unit``, ``baseline``, ``variant``, ``diff``, ``se``, ``ci_low``,
    ``ci_high``, ``pvalue``, ``se_unpaired``, ``variance_removed``, ``num_games``); no multiple-test
    adjustment (:func:`adjust_by_quantity` adds it over a whole table).
    """
    check_alpha(alpha)
    frames = [_paired(baseline, q, alpha).assign(component=name) for name, q in variants.items()]
    if not frames:
        raise ValueError("no variant to compare with the baseline")
    out = pd.concat(frames, ignore_index=True)
    return out[["component", *[c for c in out.columns if c != "component"]]]


def contrast_effects(
    baseline_a: pd.DataFrame,
    variant_a: pd.DataFrame,
    baseline_b: pd.DataFrame,
    variant_b: pd.DataFrame,
    alpha: float = 0.05,
) -> pd.DataFrame:
    """The change of a value from design ``a`` to design ``b`` on the same games: the mean over games of
    ``(variant_b - baseline_b) - (variant_a - baseline_a)`` (e.g. a card as printed, ``a``, and with its cost
    changed, ``b``), paired per game. Returns the rows of :func:`value_effects` without ``component``
    (``baseline``, ``variant``: the two values)."""
    check_alpha(alpha)
    cols = list(VALUE_QUANTITIES)
    for q in (variant_a, baseline_b, variant_b):
        if not baseline_a.index.equals(q.index):
            raise ValueError("the four runs of a contrast are not the same games")
    value_a = variant_a[cols].to_numpy(float) - baseline_a[cols].to_numpy(float)
    value_b = variant_b[cols].to_numpy(float) - baseline_b[cols].to_numpy(float)
    return effects_table(_info(), pair_moments(value_a, value_b), alpha)


def adjust_by_quantity(effects: pd.DataFrame, alpha: float = 0.05, correction: str | None = "holm") -> pd.DataFrame:
    """``effects`` (rows of :func:`value_effects`, any number of player counts and lineups) with ``pvalue_adj``,
    ``significant``, ``adj_low`` and ``adj_high``: each quantity is one family (every component, player count and
    lineup of the table together), adjusted by ``correction`` (a ``statsmodels`` ``multipletests`` method). A value
    that changed no game of the sample gets :func:`analysis.stats.paired.effect_confint`'s bound, not a zero-width
    interval."""
    check_alpha(alpha)
    require_columns(effects, ["quantity", "diff", "se", "pvalue", "num_games"], "effects")
    out = effects.copy()
    out["pvalue_adj"] = np.nan
    out["significant"] = False
    out["adj_low"] = np.nan
    out["adj_high"] = np.nan
    for _, idx in out.groupby("quantity", sort=False).groups.items():
        part = out.loc[idx]
        p_adj, reject, level = multiple_tests(part["pvalue"].to_numpy(), alpha, correction)
        unit = (part["unit"] if "unit" in part else part["quantity"].map(lambda q: VALUE_QUANTITIES[q][1])).to_numpy()
        low, high = effect_confint(
            part["diff"].to_numpy(), part["se"].to_numpy(), part["num_games"].to_numpy(dtype=float), unit, level
        )
        out.loc[idx, "pvalue_adj"] = p_adj
        out.loc[idx, "significant"] = np.asarray(reject, dtype=bool)
        out.loc[idx, "adj_low"] = low
        out.loc[idx, "adj_high"] = high
    out["significant"] = out["significant"].astype(bool)
    return out


def value_verdicts(effects: pd.DataFrame, precision: float = PRECISION) -> pd.DataFrame:
    """The holder-win rows of ``effects`` (:func:`adjust_by_quantity` output) with a verdict.

    Adds ``verdict``: ``"worth"`` (the adjusted interval lies above 0), ``"costs"`` (below 0), ``"within"`` (not
    detected, and the interval reaches no further than ``precision`` from 0: worth less than that either way) or
    ``"unresolved"`` (not detected, and the interval still allows more); and ``more_games``: for an unresolved
    value, about how many more paired games would detect it or settle it within ``precision`` of 0 if it stays as
    measured (``analysis.stats.convergence.games_to_settle``), else 0.
    """
    require_columns(effects, ["quantity", "diff", "adj_low", "adj_high", "significant", "num_games"], "effects")
    out = effects[effects["quantity"] == "holder_win"].copy()
    half = (out["adj_high"] - out["adj_low"]).to_numpy(float) / 2
    reach = np.maximum(np.abs(out["adj_low"].to_numpy(float)), np.abs(out["adj_high"].to_numpy(float)))
    sig = out["significant"].to_numpy(bool)
    up = out["diff"].to_numpy(float) > 0
    out["verdict"] = np.where(sig & up, "worth", np.where(sig, "costs", np.where(reach <= precision, "within", "")))
    unresolved = out["verdict"].to_numpy() == ""
    out.loc[unresolved, "verdict"] = "unresolved"
    more = games_to_settle(out["diff"].to_numpy(float), half, out["num_games"].to_numpy(float), precision)
    out["more_games"] = np.where(unresolved, more, 0).astype(float)
    return out


def _pp(x: float, sign: bool = True) -> str:
    return f"{100 * x:+.1f}" if sign else f"{100 * abs(x):.1f}"


def _interval(row: pd.Series, scale: float = 100.0, what: str = "result") -> str:
    """``low to high`` of the row's adjusted interval, signed as every interval on the first screen; where the
    quantity (``what`` of a game) has no bound and no pair varied, which says no game's ``what`` changed."""
    if not (np.isfinite(row["adj_low"]) and np.isfinite(row["adj_high"])):
        return f"no game's {what} changed"
    return f"{scale * row['adj_low']:+.1f} to {scale * row['adj_high']:+.1f}"


def _who(lineup: str, num_players: int, num_games: int) -> str:
    bots = f"bot {lineup}" if "," not in lineup else f"bots {lineup}, the first holding it"
    return f"{num_games:,} paired games, {bots}, {num_players} players"


def card_name(component: str, text: str) -> str:
    """How a sentence names a card: its id with its text, or the text alone where the text begins by naming the card
    (Golem's ``artifact_4`` is "Artifact 4 of the seat's tile ...").

    Examples
    --------
    >>> card_name("M04", "Trade 2 yellow for 2 green")
    'M04 (Trade 2 yellow for 2 green)'
    >>> card_name("artifact_4", "Artifact 4 of the seat's tile completed")
    "Artifact 4 of the seat's tile completed"
    """
    if text.lower().startswith(component.replace("_", " ").lower() + " "):
        return text
    return f"{component} ({text})"


def value_sentence(effects: pd.DataFrame, component: str, num_players: int, lineup: str, design: str = "gift") -> str:
    """One line answering "what is ``component`` worth" from :func:`adjust_by_quantity` rows with the columns of
    ``simulate.orchestration.card_value.ValueResult.effects`` (``component``, ``text``, ``num_players``, ``lineup``,
    ``design``): the holder's win share with its interval, or "unresolved" with the games that would settle it;
    then, where played, the value beyond a plain card (design ``<design> vs <id>``), the holder's score margin
    and the game's length."""
    require_columns(effects, ["component", "text", "num_players", "lineup", "design", "quantity"], "effects")
    cell = effects[
        (effects["component"] == component) & (effects["num_players"] == num_players) & (effects["lineup"] == lineup)
    ]
    rows = cell[cell["design"] == design].set_index("quantity")
    if "holder_win" not in rows.index:
        raise ValueError(f"no {design} value of {component} at {num_players} players, {lineup}")
    win = value_verdicts(rows.reset_index()).iloc[0]
    name = card_name(component, win["text"])
    where = _who(lineup, num_players, int(win["num_games"]))
    if win["verdict"] == "worth":
        text = f"{name} is worth {_pp(win['diff'])} pp win share to its holder ({_interval(win)}, {where})"
    elif win["verdict"] == "costs":
        text = f"{name} costs its holder {_pp(win['diff'], False)} pp win share ({_interval(win)}, {where})"
    elif win["verdict"] == "within":
        text = (
            f"{name} is worth less than ±{100 * PRECISION:g} pp win share to its holder either way "
            f"({_pp(win['diff'])} pp, {_interval(win)}, {where})"
        )
    else:
        text = (
            f"{name}: unresolved, {_pp(win['diff'])} pp win share to its holder ({_interval(win)}, {where}); about "
            f"{more_games_text(win['more_games'])} (paired) would detect it or settle it within ±{100 * PRECISION:g} pp"
        )
    for other in sorted(d for d in cell["design"].unique() if d.startswith(design + " vs ")):
        rel = value_verdicts(cell[cell["design"] == other]).iloc[0]
        ref = other.split(" vs ", 1)[1]
        text += f"; beyond a gift of plain {ref}: {_pp(rel['diff'])} pp ({_interval(rel)}{_open_text(rel)})"
    if "holder_margin" in rows.index:
        m = rows.loc["holder_margin"]
        text += f"; holder's score margin {m['diff']:+.1f} points ({_interval(m, 1.0, 'margin')})"
    if "length" in rows.index:
        length = rows.loc["length"]
        text += f"; game length {length['diff']:+.1f} rounds ({_interval(length, 1.0, 'length')})"
    return text


def _open_text(row: pd.Series) -> str:
    """``""`` for a detected effect; for one not detected, whether it is settled within ±:data:`PRECISION` or
    unresolved with the paired games that would settle it (a :func:`value_verdicts` row)."""
    if row["verdict"] in ("worth", "costs"):
        return ""
    if row["verdict"] == "within":
        return f", within ±{100 * PRECISION:g} pp"
    return f", unresolved: about {more_games_text(row['more_games'])} would detect or settle it"


def change_sentence(effects: pd.DataFrame) -> str:
    """ "Change from the printed card: ..." from the ``change`` design's holder-win row of ``effects`` (the paired
    difference of a what-if's value and the printed card's): the change with its interval and, when it is not
    detected, whether it is settled within ±:data:`PRECISION` or how many more games would settle it."""
    win = value_verdicts(effects).iloc[0]
    return (
        f"Change from the printed card: {_pp(win['diff'])} pp win share to its holder ({_interval(win)}"
        f"{_open_text(win)}), paired on the same games"
    )


def _colours(cards: pd.DataFrame, prefix: str) -> list[str]:
    return [c for c in cards.columns if c.startswith(prefix + "_")]


def implied_prices(cards: pd.DataFrame, far: float = 2.0) -> tuple[pd.Series, pd.DataFrame]:
    """The market's implied price of each crystal colour: least squares of a point card's ``vp`` on the crystals it
    costs (``in_<colour>`` columns), no intercept (``numpy.linalg.lstsq``).

    Returns the prices (a Series by colour) and ``cards`` with ``fitted`` (the VP its cost buys at those prices),
    ``residual`` (``vp - fitted``) and ``price`` (``"above"`` or ``"below"`` when the residual is at least ``far``
    residual standard deviations from 0, else ``""``), sorted by residual, best buy first.
    """
    require_columns(cards, ["component", "vp"], "cards")
    cols = _colours(cards, "in")
    if not cols:
        raise ValueError("cards: no in_<colour> cost columns")
    x = cards[cols].to_numpy(float)
    y = cards["vp"].to_numpy(float)
    coef, *_ = np.linalg.lstsq(x, y, rcond=None)
    prices = pd.Series(coef, index=[c.removeprefix("in_") for c in cols], name="price")
    out = cards.copy()
    out["fitted"] = x @ coef
    out["residual"] = y - out["fitted"]
    sd = float(np.sqrt(np.sum(out["residual"] ** 2) / max(len(out) - len(cols), 1)))
    flag = np.where(out["residual"] >= far * sd, "above", np.where(out["residual"] <= -far * sd, "below", ""))
    out["price"] = flag if sd > 0 else ""
    return prices, out.sort_values("residual", ascending=False, kind="stable").reset_index(drop=True)


def value_for_price(
    values: pd.DataFrame, prices: Sequence[str], alpha: float = 0.05
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Value for cost from measured values: the line of a card's measured value on its printed price, and the
    cards far above or below it.

    ``values`` holds one row per card of one player count and lineup: ``component``, ``diff`` (its measured value,
    e.g. the holder-win rows of :func:`value_effects`), ``se`` (that value's standard error) and the ``prices``
    columns (what the card costs, one column per unit). The line is a weighted least squares fit
    (``statsmodels`` WLS, weights ``1 / se**2``) with an intercept, the value of a card at no price; its scale is
    at least the measurement error's (``max(1, estimated scale)``), so cards that differ beyond their own noise
    widen the intervals. A price column that is the same for every card is left out.

    Returns ``fit``, one row per term (``intercept``, then each price column used): ``term``, ``coef`` (the
    value a unit of the price buys), ``se``, ``ci_low``, ``ci_high`` (level ``1 - alpha``), ``pvalue``; and
    ``cards``: ``values`` with ``fitted`` (the value its price predicts), ``residual`` (``diff - fitted``), ``z``
    (the residual over its own measurement error, ``se * sqrt(1 - leverage)``), ``pvalue_adj`` (two-sided, Holm
    over the cards) and ``price``: ``"above"`` or ``"below"`` when the card is detectably off the line, else
    ``""``; sorted by residual, best buy first.
    """
    check_alpha(alpha)
    require_columns(values, ["component", "diff", "se", *prices], "values")
    used = [c for c in prices if values[c].nunique() > 1]
    if len(values) < len(used) + 3:
        raise ValueError(
            f"a value-for-price line over {len(used)} price column(s) needs at least {len(used) + 3} cards"
        )
    se = values["se"].to_numpy(float)
    if not (np.isfinite(se) & (se > 0)).all():
        raise ValueError("values: every se must be positive (a value measured on one game has none)")
    x = sm.add_constant(values[used].to_numpy(float), has_constant="add")
    y = values["diff"].to_numpy(float)
    first = sm.WLS(y, x, weights=1 / se**2).fit()
    res = sm.WLS(y, x, weights=1 / se**2).fit(cov_type="fixed scale", cov_kwds={"scale": max(1.0, first.scale)})
    low, high = res.conf_int(alpha).T
    fit = pd.DataFrame(
        {
            "term": ["intercept", *used],
            "coef": res.params,
            "se": res.bse,
            "ci_low": low,
            "ci_high": high,
            "pvalue": res.pvalues,
        }
    )
    wx = res.model.wexog  # the weighted design: its hat matrix's diagonal is each card's leverage
    leverage = np.einsum("ij,ji->i", wx, np.linalg.pinv(wx))
    out = values.copy()
    out["fitted"] = res.fittedvalues
    out["residual"] = y - out["fitted"]
    with np.errstate(divide="ignore", invalid="ignore"):
        z = np.where(leverage < 1 - 1e-9, out["residual"] / (se * np.sqrt(np.clip(1 - leverage, 0, None))), np.nan)
    out["z"] = z
    p_adj, reject, _ = multiple_tests(2 * stats.norm.sf(np.abs(z)), alpha, "holm")
    out["pvalue_adj"] = p_adj
    out["price"] = np.where(reject & (z > 0), "above", np.where(reject, "below", ""))
    return fit, out.sort_values("residual", ascending=False, kind="stable").reset_index(drop=True)


def measured_value_for_price(
    verdicts: pd.DataFrame, facts: Mapping, alpha: float = 0.05
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """:func:`value_for_price` for each player count and lineup of ``verdicts`` (the ``gift`` rows of
    :func:`value_verdicts` with ``component``, ``text``, ``num_players``, ``lineup``), on the priced kind of
    ``facts`` (a run manifest's ``value_for_cost``: ``measured_price`` names the kind and its price columns, ``cards``
    their amounts). A value with no standard error (the card changed no game) is left out; a cell with too few cards
    for a line is skipped. Returns the fits and the cards, each with ``num_players`` and ``lineup``."""
    measured = dict(facts.get("measured_price", {}))
    kind = measured.pop("kind", None)
    table = pd.DataFrame(facts.get("cards", []))
    fits, cards = [], []
    if kind is None or table.empty:
        return pd.DataFrame(), pd.DataFrame()
    prices = table[table["kind"] == kind].set_index("component").reindex(columns=list(measured)).fillna(0)
    for (n, lineup), part in verdicts.groupby(["num_players", "lineup"], sort=True):
        values = part[part["component"].isin(prices.index) & (part["se"] > 0)].drop(
            columns=list(measured), errors="ignore"
        )
        values = values.join(prices, on="component").reset_index(drop=True)
        try:
            fit, against = value_for_price(values, list(measured), alpha)
        except ValueError:
            continue
        fits.append(fit.assign(num_players=n, lineup=lineup))
        cards.append(against.assign(num_players=n, lineup=lineup))
    if not fits:
        return pd.DataFrame(), pd.DataFrame()
    return pd.concat(fits, ignore_index=True), pd.concat(cards, ignore_index=True)


def value_for_price_sentence(fit: pd.DataFrame, units: Mapping[str, str], kind: str) -> str:
    """The line of :func:`value_for_price` in words: what a ``kind`` at no price is worth and what each unit of
    its price adds (``units``: price column -> unit in words, e.g. "Knowledge"), each with its interval, in pp of win
    share."""
    require_columns(fit, ["term", "coef", "ci_low", "ci_high"], "fit")
    parts = []
    for r in fit.itertuples():
        interval = f"{100 * r.ci_low:+.1f} to {100 * r.ci_high:+.1f}"
        if r.term == "intercept":
            parts.append(f"a {kind} at no price is worth {_pp(r.coef)} pp ({interval})")
        else:
            parts.append(f"each {units.get(r.term, r.term)} of price adds {_pp(r.coef)} pp ({interval})")
    return "; ".join(parts)


def dominated_cards(cards: pd.DataFrame) -> pd.DataFrame:
    """Cards another card of the same kind strictly dominates: it pays no more of any colour (``in_<colour>``),
    gains at least as much of every colour (``out_<colour>``), upgrades (``upgrades``) and VP (``vp``) as many, and
    differs somewhere (identical copies dominate no one). A card that pays nothing counts as paying zero, so a
    create card can dominate a trade card.

    ``cards`` needs ``component``, ``kind``, ``vp``, ``upgrades`` and the colour columns. Returns one row per
    dominated card: ``component``, ``kind``, ``dominated_by`` (comma-separated ids), in ``cards``' order.
    """
    require_columns(cards, ["component", "kind", "vp", "upgrades"], "cards")
    pay = cards[_colours(cards, "in")].to_numpy(float)
    gain = np.column_stack([cards[_colours(cards, "out")].to_numpy(float), cards[["upgrades", "vp"]].to_numpy(float)])
    kind = cards["kind"].to_numpy()
    ids = cards["component"].to_numpy()
    rows = []
    for j in range(len(cards)):
        no_more = (pay <= pay[j]).all(axis=1) & (gain >= gain[j]).all(axis=1) & (kind == kind[j])
        differs = (pay != pay[j]).any(axis=1) | (gain != gain[j]).any(axis=1)
        better = ids[no_more & differs]
        if len(better):
            rows.append([ids[j], kind[j], ", ".join(map(str, better))])
    return pd.DataFrame(rows, columns=["component", "kind", "dominated_by"])
