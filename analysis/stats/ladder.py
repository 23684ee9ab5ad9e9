"""Skill ladder: the seat-advantage answer measured in mirror matches at each rung of bot strength.

A game declares its bots' ladder from weakest to strongest (``skill_ladder``, e.g. random, the
heuristic bots, search); the standard study plays a mirror match at each rung, and the ladder shows
whether seat 1's advantage or deficit is the game's or an artefact of how well the bots play.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
from scipy import stats

from analysis.stats._util import check_alpha, require_columns, seat_margins
from analysis.stats.seats import win_rates
from analysis.stats.strategies import ELO_SCALE, head_to_head


def skill_ladder(seats: pd.DataFrame, rungs: Sequence[str], alpha: float = 0.05) -> pd.DataFrame:
    """Seat 1's win rate and excess over the fair share in mirror matches, per player count and rung.

    Parameters
    ----------
    seats : DataFrame
        Seat rows of mirror matches only: ``num_players``, ``seat`` (1 = first to move), ``bot``, ``win``.
    rungs : sequence of str
        Bot labels from weakest to strongest; mirror matches of other bots are left out.
    alpha : float
        The intervals are Wilson intervals at level ``1 - alpha``.

    Returns
    -------
    DataFrame
        One row per player count and rung played, in rung order: ``num_players``, ``rung`` (0-based
        position in ``rungs``), ``bot``, ``num_games``, ``win_rate``, ``ci_low``, ``ci_high``, ``fair``,
        ``excess``, ``excess_low``, ``excess_high`` (seat 1's win rate minus 1/n, with its interval).
    """
    missing = [c for c in ("num_players", "seat", "bot", "win") if c not in seats.columns]
    if missing:
        raise ValueError(f"seats table has no column {', '.join(missing)}")
    position = {bot: k for k, bot in enumerate(rungs)}
    first = seats[(seats["seat"] == 1).to_numpy() & seats["bot"].astype(str).isin(position).to_numpy()]
    columns = ["num_players", "rung", "bot", "num_games", "win_rate", "ci_low", "ci_high", "fair", "excess"]
    if first.empty:
        return pd.DataFrame(columns=[*columns, "excess_low", "excess_high"])
    frame = first[["num_players", "win"]].assign(bot=first["bot"].astype(str).to_numpy())
    table = win_rates(frame, by="bot", alpha=alpha)
    table["rung"] = table["bot"].map(position).astype(int)
    table["excess_low"] = table["ci_low"] - table["fair"]
    table["excess_high"] = table["ci_high"] - table["fair"]
    table = table.sort_values(["num_players", "rung"], ignore_index=True)
    return table[[*columns, "excess_low", "excess_high"]]


def ladder_verdicts(ladder: pd.DataFrame, unit: str | None = None) -> list[str]:
    """One sentence per player count: does seat 1's advantage or deficit hold from the weakest to the strongest rung?

    Reads :func:`skill_ladder`'s table (win shares, in pp), or with ``unit`` (a game scored in it, e.g. ``"chips"``)
    seat 1's rows of :func:`ladder_seats` with ``outcome="score"``: its net score against the other seats' mean. A
    sign holds at a rung when the rung's interval excludes 0; a player count with a single rung gets no verdict
    (there is no ladder to read).
    """

    def _pp(x: float) -> str:
        return f"{100 * x:+.1f} pp" if unit is None else f"{x:+.1f} {unit}"

    against = "against the fair share" if unit is None else "against the other seats"
    out = []
    for n, part in ladder.groupby("num_players", sort=True):
        if len(part) < 2:
            continue
        low, high = part.iloc[0], part.iloc[-1]
        signs = np.where(part["excess_low"] > 0, 1, np.where(part["excess_high"] < 0, -1, 0))
        what = "advantage" if signs[-1] > 0 else "deficit"
        where = f"{n} players, seat 1 (rungs {low['bot']} to {high['bot']})"
        if signs[-1] != 0 and (signs == signs[-1]).all():
            out.append(
                f"{where}: seat 1's {what} holds at every skill level "
                f"({_pp(low['excess'])} to {_pp(high['excess'])} {against})."
            )
        elif signs[-1] == 0:
            out.append(
                f"{where}: no seat-1 effect is detected at the strongest rung ({_pp(high['excess'])}, interval "
                f"{_pp(high['excess_low'])} to {_pp(high['excess_high'])}), against {_pp(low['excess'])} at the "
                "weakest."
            )
        else:
            change = "shrinks" if abs(high["excess"]) < abs(low["excess"]) else "grows"
            out.append(
                f"{where}: seat 1's {what} {change} from {_pp(low['excess'])} to {_pp(high['excess'])} under "
                "stronger play and is not detected at every rung."
            )
    return out


# --- every seat at every rung, and one verdict per player count --------------------------------

PRECISION = 0.02
"""An answer is settled when its interval reaches at most this far from its estimate (±2 pp)."""
TOPUP_SEARCH, TOPUP_CHEAP = PRECISION, PRECISION / 2
"""The standard study's top-up targets (``Study.search_precision``, ``cheap_precision``): search rungs to the
answer's precision, the strongest cheap rung to half of it (a game scored in chips: the same parts of its own
``outcome_precision``)."""

HOLDS = "holds at every skill level"
CHANGES = "changes with skill"
UNRESOLVED = "unresolved"
VERDICT_CLASSES = (HOLDS, CHANGES, UNRESOLVED)
"""The fixed vocabulary of :func:`ladder_answers`."""


def rung_order(rungs: Sequence[str], ratings: pd.DataFrame | None = None) -> pd.DataFrame:
    """The rungs from weakest to strongest by measured strength where there is a rating, else as declared.

    Parameters
    ----------
    rungs : sequence of str
        The game's ``skill_ladder``, weakest to strongest as declared.
    ratings : DataFrame, optional
        Ratings from games between the bots (e.g. :func:`analysis.stats.strategies.bradley_terry` on the
        mixed games): columns ``bot`` and ``rating`` (higher is stronger). Rungs without a rating keep
        their declared place; the rated rungs are re-ordered by rating among the places they hold.

    Returns
    -------
    DataFrame
        One row per rung, weakest first: ``bot``, ``order`` (0-based), ``declared`` (0-based place in
        ``rungs``), ``rating``, ``rating_low``, ``rating_high`` (the rating's interval, from the ratings'
        ``ci_low`` and ``ci_high`` where given; NaN where none) and ``basis`` (``"measured"`` or ``"declared"``).

    Examples
    --------
    >>> r = pd.DataFrame({"bot": ["greedy", "engine"], "rating": [0.3, -0.3]})
    >>> rung_order(["random", "greedy", "engine", "search"], r)["bot"].tolist()
    ['random', 'engine', 'greedy', 'search']
    """
    rungs = list(rungs)
    rated: dict[str, float] = {}
    bounds: dict[str, tuple[float, float]] = {}
    if ratings is not None and len(ratings):
        missing = [c for c in ("bot", "rating") if c not in ratings.columns]
        if missing:
            raise ValueError(f"ratings table has no column {', '.join(missing)}")
        given = dict(zip(ratings["bot"].astype(str), ratings["rating"].astype(float), strict=True))
        rated = {bot: given[bot] for bot in rungs if bot in given and np.isfinite(given[bot])}
        if {"ci_low", "ci_high"} <= set(ratings.columns):
            bounds = {
                str(b): (float(lo), float(hi))
                for b, lo, hi in zip(ratings["bot"], ratings["ci_low"], ratings["ci_high"], strict=True)
            }
    if len(rated) < 2:  # one rating orders nothing
        rated = {}
    places = [k for k, bot in enumerate(rungs) if bot in rated]
    ordered = list(rungs)
    for place, bot in zip(places, sorted(rated, key=lambda b: (rated[b], rungs.index(b))), strict=True):
        ordered[place] = bot
    out = pd.DataFrame(
        {
            "bot": ordered,
            "order": range(len(ordered)),
            "declared": [rungs.index(bot) for bot in ordered],
            "rating": [rated.get(bot, np.nan) for bot in ordered],
            "rating_low": [bounds.get(bot, (np.nan, np.nan))[0] if bot in rated else np.nan for bot in ordered],
            "rating_high": [bounds.get(bot, (np.nan, np.nan))[1] if bot in rated else np.nan for bot in ordered],
            "basis": ["measured" if bot in rated else "declared" for bot in ordered],
        }
    )
    if rated and ratings is not None and "cov" in ratings.attrs:
        out.attrs["cov"] = ratings.attrs["cov"]
    return out


def ladder_seats(
    seats: pd.DataFrame, order: pd.DataFrame | Sequence[str], alpha: float = 0.05, outcome: str = "win"
) -> pd.DataFrame:
    """Every seat's win rate and excess over the fair share in mirror matches, per player count and rung.

    Parameters
    ----------
    seats : DataFrame
        Seat rows of mirror matches: ``num_players``, ``seat`` (place in turn order), ``bot``, ``win``.
    order : DataFrame or sequence of str
        :func:`rung_order`'s table (column ``bot``, weakest first) or the bot labels weakest first;
        mirror matches of other bots are left out.
    alpha : float
        Wilson intervals at level ``1 - alpha``.
    outcome : {"win", "score"}
        What a seat's answer measures: its share of wins against the fair 1/n (``"win"``), or its net
        score against the mean of the other seats of its game (``"score"``, e.g. net chips; needs
        ``game`` and ``score``; t intervals over games, and ``fair`` 0).

    Returns
    -------
    DataFrame
        One row per player count, rung played and seat, weakest rung first: ``num_players``, ``rung``
        (0-based position in ``order``), ``bot``, ``seat``, ``num_games``, ``win_rate``, ``ci_low``,
        ``ci_high``, ``fair``, ``excess``, ``excess_low``, ``excess_high``, ``half_width`` (the
        interval's larger reach from the estimate). With ``outcome="score"`` the rate columns hold the
        mean score margin and its interval.
    """
    if outcome not in ("win", "score"):
        raise ValueError(f"outcome must be 'win' or 'score', got {outcome!r}")
    needed = (
        ("num_players", "seat", "bot", "win") if outcome == "win" else ("game", "num_players", "seat", "bot", "score")
    )
    missing = [c for c in needed if c not in seats.columns]
    if missing:
        raise ValueError(f"seats table has no column {', '.join(missing)}")
    bots = list(order["bot"]) if isinstance(order, pd.DataFrame) else list(order)
    position = {bot: k for k, bot in enumerate(bots)}
    keep = seats["bot"].astype(str).isin(position).to_numpy()
    columns = ["num_players", "rung", "bot", "seat", "num_games", "win_rate", "ci_low", "ci_high", "fair"]
    columns += ["excess", "excess_low", "excess_high", "half_width"]
    if not keep.any():
        return pd.DataFrame(columns=columns)
    if outcome == "score":
        table = _margins(seats, keep, alpha)
    else:
        frame = seats.loc[keep, ["num_players", "seat", "win"]].assign(
            bot=seats.loc[keep, "bot"].astype(str).to_numpy()
        )
        table = win_rates(frame, by=["bot", "seat"], alpha=alpha)
    table["rung"] = table["bot"].map(position).astype(int)
    table["excess_low"] = table["ci_low"] - table["fair"]
    table["excess_high"] = table["ci_high"] - table["fair"]
    table["half_width"] = np.maximum(table["win_rate"] - table["ci_low"], table["ci_high"] - table["win_rate"])
    return table.sort_values(["num_players", "rung", "seat"], ignore_index=True)[columns]


def _margins(seats: pd.DataFrame, keep: np.ndarray, alpha: float) -> pd.DataFrame:
    """Mean score margin (score minus the other seats' mean) per player count, bot and seat, with t intervals."""
    margin = seat_margins(seats[["game", "score"]])[keep]
    frame = pd.DataFrame(
        {
            "num_players": seats.loc[keep, "num_players"].to_numpy(),
            "bot": seats.loc[keep, "bot"].astype(str).to_numpy(),
            "seat": seats.loc[keep, "seat"].to_numpy(),
            "margin": margin,
        }
    )
    grouped = frame.groupby(["num_players", "bot", "seat"], sort=True)["margin"]
    table = grouped.agg(["mean", "std", "size"]).reset_index()
    se = table["std"] / np.sqrt(table["size"])
    half = stats.t.ppf(1 - alpha / 2, np.maximum(table["size"] - 1, 1)) * se
    return pd.DataFrame(
        {
            "num_players": table["num_players"],
            "bot": table["bot"],
            "seat": table["seat"],
            "num_games": table["size"],
            "win_rate": table["mean"],
            "ci_low": table["mean"] - half,
            "ci_high": table["mean"] + half,
            "fair": 0.0,
            "excess": table["mean"],
        }
    )


def strong_play(order: pd.DataFrame, bots: Sequence[str], alpha: float = 0.05) -> list[str]:
    """The rungs of strong play among ``bots`` (those played), strongest first.

    ``order`` is :func:`rung_order`'s table. Where the strongest of ``bots`` is rated with an interval, strong play
    is it and every rated rung not separated from it: the interval (level ``1 - alpha``) of the gap between their
    ratings reaches 0, with the ratings' covariance where ``order.attrs["cov"]`` holds it (Bradley-Terry), else
    where their two intervals overlap; otherwise it is the two strongest rungs in ``order`` (the declared order
    tells nothing about their gap).

    Examples
    --------
    >>> r = pd.DataFrame({"bot": ["a", "b", "c"], "rating": [0.0, 0.5, 0.6], "ci_low": [-0.1, 0.4, 0.5],
    ...                   "ci_high": [0.1, 0.6, 0.7]})
    >>> strong_play(rung_order(["a", "b", "c"], r), ["a", "b", "c"])
    ['c', 'b']
    """
    ranked = [b for b in order["bot"] if b in set(bots)][::-1]
    if not ranked:
        return []
    rows = order.set_index("bot")
    top = rows.loc[ranked[0]]
    if top["basis"] != "measured" or not np.isfinite(top["rating_low"]):
        return ranked[:2]
    cov = order.attrs.get("cov")
    z = stats.norm.ppf(1 - alpha / 2)

    def close(b: str) -> bool:
        if rows.at[b, "basis"] != "measured":
            return False
        if cov is None or ranked[0] not in cov.index or b not in cov.index:
            return bool(rows.at[b, "rating_high"] >= top["rating_low"])
        var = cov.at[ranked[0], ranked[0]] + cov.at[b, b] - 2 * cov.at[ranked[0], b]
        return bool(top["rating"] - rows.at[b, "rating"] <= z * np.sqrt(max(var, 0.0)))

    return [ranked[0]] + [b for b in ranked[1:] if close(b)]


def pair_games(seats: pd.DataFrame) -> dict[frozenset[str], int]:
    """Games in which each two different bots both sat: ``frozenset({bot, other}) -> games``.

    Required columns: ``game``, ``bot``.
    """
    require_columns(seats, ["game", "bot"], "seats")
    if seats.empty:
        return {}
    present = pd.crosstab(seats["game"].to_numpy(), seats["bot"].astype(str).to_numpy()).gt(0).astype(np.int64)
    met = present.T @ present
    bots = list(met.index)
    return {
        frozenset((a, b)): int(met.iat[i, j])
        for i, a in enumerate(bots)
        for j, b in enumerate(bots)
        if i < j and met.iat[i, j] > 0
    }


def separation_games(order: pd.DataFrame, bot: str, other: str, games: int) -> float:
    """How many more games between ``bot`` and ``other`` would separate their rating intervals (0 when they already
    are; inf when their ratings are equal or either is unrated), after ``games`` games between them: the intervals
    shrink as 1/sqrt(N), and two intervals part when the gap exceeds the sum of their half-widths."""
    rows = order.set_index("bot")
    a, b = rows.loc[bot], rows.loc[other]
    halves = [(r["rating_high"] - r["rating_low"]) / 2 for r in (a, b)]
    gap = abs(float(a["rating"] - b["rating"]))
    if not all(np.isfinite(h) for h in halves) or not np.isfinite(gap) or games <= 0:
        return float("inf")
    need = sum(halves)
    if gap >= need:
        return 0.0
    if gap <= 0:
        return float("inf")
    return float(np.ceil(games * ((need / gap) ** 2 - 1)))


def ladder_answers(
    ladder: pd.DataFrame,
    alpha: float = 0.05,
    precision: float = PRECISION,
    order: pd.DataFrame | None = None,
    games_between: dict[frozenset[str], int] | None = None,
) -> pd.DataFrame:
    """One seat answer per player count at strong play, with its class from :data:`VERDICT_CLASSES`.

    Reads :func:`ladder_seats`'s table (rungs in order of strength); ``precision`` is in its units (a share
    for win rates, score units for margins). Strong play (:func:`strong_play`) is, with ``order`` carrying
    ratings, every rung played whose rating interval overlaps the top's; without, the two strongest rungs. The
    answer pools (inverse-variance) the top with the strong rungs that agree with it (no seat's excess differs
    at level ``alpha``, Bonferroni over the seats):

    - ``unresolved`` when only one rung was played, when a strong rung disagrees with the top (``split`` gives
      each one's seat-1 figure; ``more_games`` how many more games between the two would separate their
      ratings, inf when that is out of reach or they are unrated: ``games_between`` counts the games each two
      bots played together), or when the strong-play interval of some seat reaches further than ``precision``
      (±2 pp) from its estimate: never "no difference" from an underpowered rung; ``more_games`` then says how
      many more games at the strongest rung would bring its widest interval within ``precision``;
    - ``holds at every skill level`` when every rung played agrees with strong play (Bonferroni over
      rungs and seats);
    - ``changes with skill`` otherwise (``changed_at`` names the rungs that differ).

    Returns
    -------
    DataFrame
        One row per player count: ``num_players``, ``verdict`` (the class), ``reason`` (why unresolved,
        else ""), ``strongest`` (the rung labels pooled, strongest first, joined by " and "), ``strong`` (every
        rung of strong play, strongest first, joined by " and "), ``num_rungs``, ``num_games`` (games at the
        strongest rung), ``seat`` (the seat furthest from its share at strong play), ``excess``,
        ``excess_low``, ``excess_high`` (that seat's, pooled), ``seat1_excess``, ``seat1_low``, ``seat1_high``,
        ``half_width`` (widest reach over seats, pooled), ``precision`` (the ``precision`` asked), ``detected``
        (some seat's interval excludes its share),
        ``more_games`` (0 when settled), ``changed_at`` (rung labels that differ from strong play, weakest first),
        ``split`` (when strong rungs disagree: ``(bot, seat-1 win rate, ci_low, ci_high)`` of the top and of
        each rung that disagrees with it, else empty) and ``top_alone`` (when the pooled figure of ``seat`` rests
        mostly, over half its weight, on rungs below the top: ``(top bot, excess, excess_low, excess_high)`` of the
        top alone, else empty), so an answer never borrows a precision the strongest player did not reach.
    """
    z = stats.norm.ppf(1 - alpha / 2)
    rows = []
    for n, part in ladder.groupby("num_players", sort=True):
        rungs = sorted(part["rung"].unique())
        label = {int(r): str(part.loc[part["rung"] == r, "bot"].iloc[0]) for r in rungs}
        position = {b: r for r, b in label.items()}
        if order is not None:
            strong = [position[b] for b in strong_play(order, list(position), alpha)]
        else:
            strong = rungs[::-1][:2]
        top = part[part["rung"] == strong[0]].set_index("seat").sort_index()
        se_top = top["half_width"] / z
        used, disagree, reason = [top], [], ""
        crit = stats.norm.ppf(1 - alpha / (2 * len(top)))
        for r in strong[1:]:
            other = part[part["rung"] == r].set_index("seat").reindex(top.index)
            gap = (top["excess"] - other["excess"]).abs() / np.hypot(se_top, other["half_width"] / z)
            (used if bool((gap <= crit).all()) else disagree).append(other)
        pooled = _pool(used, z)
        width = float(pooled["half_width"].max())
        more = 0.0
        top_width = float(top["half_width"].max())
        if len(rungs) < 2:
            reason = f"only {top['bot'].iloc[0]} was played at {n} players"
        elif disagree:
            reason = "the strongest rungs disagree"
            if order is None or games_between is None:
                more = float("inf")
            else:
                top_bot = str(top["bot"].iloc[0])
                more = max(
                    separation_games(
                        order,
                        top_bot,
                        str(d["bot"].iloc[0]),
                        games_between.get(frozenset((top_bot, d["bot"].iloc[0])), 0),
                    )
                    for d in disagree
                )
        elif width > precision:
            reason = f"the strong-play intervals reach ±{100 * width:.1f} pp, wider than ±{100 * precision:g} pp"
        if not disagree and top_width > precision:
            games = float(top["num_games"].iloc[0])
            more = float(np.ceil(games * (top_width / precision) ** 2 - games))
        changed = []
        if not reason:
            for r in rungs:
                if r in strong:
                    continue
                rung = part[part["rung"] == r].set_index("seat").reindex(pooled.index)
                crit_all = stats.norm.ppf(1 - alpha / (2 * len(pooled) * max(len(rungs) - 1, 1)))
                gap = (rung["excess"] - pooled["excess"]).abs() / np.hypot(rung["half_width"] / z, pooled["se"])
                if (gap > crit_all).any():
                    changed.append(str(rung["bot"].iloc[0]))
        verdict = UNRESOLVED if reason else (CHANGES if changed else HOLDS)
        size = pooled["excess"].abs()
        far = pooled.index.min() if size.iloc[0] >= size.max() - 1e-12 else size.idxmax()  # seat 1 on a tie
        first = pooled.loc[pooled.index.min()]
        top_alone: tuple = ()
        if len(used) > 1 and float(pooled.at[far, "se"]) ** 2 < 0.5 * max(float(se_top.at[far]), 1e-12) ** 2:
            top_alone = (
                str(top["bot"].iloc[0]),
                float(top.at[far, "excess"]),
                float(top.at[far, "excess_low"]),
                float(top.at[far, "excess_high"]),
            )
        split = [
            (
                str(d["bot"].iloc[0]),
                float(d["win_rate"].iloc[0]),
                float(d["ci_low"].iloc[0]),
                float(d["ci_high"].iloc[0]),
            )
            for d in ([top, *disagree] if disagree else [])
        ]
        rows.append(
            {
                "num_players": int(n),
                "verdict": verdict,
                "reason": reason,
                "strongest": " and ".join(str(u["bot"].iloc[0]) for u in used),
                "strong": " and ".join(label[r] for r in strong),
                "num_rungs": len(rungs),
                "num_games": int(top["num_games"].iloc[0]),
                "seat": int(far),
                "excess": float(pooled.at[far, "excess"]),
                "excess_low": float(pooled.at[far, "excess_low"]),
                "excess_high": float(pooled.at[far, "excess_high"]),
                "seat1_excess": float(first["excess"]),
                "seat1_low": float(first["excess_low"]),
                "seat1_high": float(first["excess_high"]),
                "half_width": width,
                "precision": precision,
                "detected": bool(((pooled["excess_low"] > 0) | (pooled["excess_high"] < 0)).any()),
                "more_games": more,
                "changed_at": changed,
                "split": split,
                "top_alone": top_alone,
            }
        )
    columns = ["num_players", "verdict", "reason", "strongest", "strong", "num_rungs", "num_games", "seat", "excess"]
    columns += ["excess_low", "excess_high", "seat1_excess", "seat1_low", "seat1_high", "half_width", "precision"]
    columns += ["detected"]
    return pd.DataFrame(rows, columns=[*columns, "more_games", "changed_at", "split", "top_alone"])


def _pool(rungs: list[pd.DataFrame], z: float) -> pd.DataFrame:
    """Inverse-variance pooled excess per seat over ``rungs`` (seat-indexed ladder rows), with a normal interval."""
    se = np.column_stack([r["half_width"].to_numpy(float) / z for r in rungs])
    excess = np.column_stack([r["excess"].to_numpy(float) for r in rungs])
    with np.errstate(divide="ignore", invalid="ignore"):
        weight = 1.0 / np.maximum(se, 1e-12) ** 2
    mean = (weight * excess).sum(axis=1) / weight.sum(axis=1)
    pooled_se = 1.0 / np.sqrt(weight.sum(axis=1))
    if len(rungs) == 1:  # keep the Wilson interval of a single rung
        low, high = rungs[0]["excess_low"].to_numpy(float), rungs[0]["excess_high"].to_numpy(float)
        half = rungs[0]["half_width"].to_numpy(float)
    else:
        low, high, half = mean - z * pooled_se, mean + z * pooled_se, z * pooled_se
    return pd.DataFrame(
        {"excess": mean, "excess_low": low, "excess_high": high, "half_width": half, "se": pooled_se},
        index=rungs[0].index,
    )


def skill_and_luck(
    seats: pd.DataFrame, rungs: Sequence[str], alpha: float = 0.05, every_pair: bool = False
) -> pd.DataFrame:
    """How much skill decides against luck between two close players: how often the better of two neighbouring strong
    rungs finishes above the other.

    Required columns: ``game``, ``seat``, ``bot``, ``rank`` of games between different bots (mixed games;
    pairs of seats with the same bot are skipped). ``rungs`` are the ladder's bots from weakest to strongest
    (e.g. :func:`rung_order`'s ``bot``). Player counts are pooled.

    The pair read is the strongest that met: the two rungs whose lower one stands highest on the ladder, the closest
    two on a tie (the two strongest neighbours when they met). Against ``random`` a good bot leaves luck almost
    nothing, which tells a designer nothing; between close strong players the upsets say how far a little more skill
    carries. Within a pair, the ``weaker`` is the one that finishes above the other in less than half of their seat
    pairs, whatever the declared ladder says (a declared order the games contradict is not printed as if true).
    With ``every_pair`` it returns a row for every two rungs that met (in ladder order of the lower one, then the
    higher one).

    Returns one row per pair (none when no two rungs met): ``weaker``, ``stronger`` (by the measured result),
    ``num_games``, ``num_comparisons`` (their seat pairs), ``upset`` (the share of pairs the weaker finishes above the
    stronger, a shared tie counting half), ``spread`` (the stronger's Bradley-Terry rating minus the weaker's, in
    log-odds: ``logit(1 - upset)``), ``elo_spread`` (the same on the Elo scale) and ``luck`` (``2 * upset``, at most
    1: the share of results a coin flip would have to decide in a game the stronger always wins to give the weaker as
    many wins; after Duersch, Lambrecht and Oechssler 2020). It counts every upset as luck, so it bounds luck's share
    for that pair of players, not the game's: a closer pair reads more luck), each with ``_low``, ``_high`` (the
    game-clustered Wilson interval of :func:`analysis.stats.strategies.head_to_head`, carried through).

    References
    ----------
    P. Duersch, M. Lambrecht and J. Oechssler, "Measuring skill and chance in games", European Economic Review
    127 (2020) 103472.
    """
    check_alpha(alpha)
    require_columns(seats, ["game", "seat", "bot", "rank"], "seats")
    columns = ["weaker", "stronger", "num_games", "num_comparisons"]
    for name in ("upset", "spread", "elo_spread", "luck"):
        columns += [name, f"{name}_low", f"{name}_high"]
    order = {bot: k for k, bot in enumerate(rungs)}
    pairs = seats[seats["bot"].astype(str).isin(order).to_numpy()]
    h2h = head_to_head(pairs[["game", "seat", "bot", "rank"]], alpha=alpha) if len(pairs) else pd.DataFrame()
    if h2h.empty:
        return pd.DataFrame(columns=columns)
    low, high = h2h["bot"].map(order), h2h["opponent"].map(order)
    # one row per unordered pair: the side that finished above less than half (the declared lower on an even split)
    below = (h2h["win_rate"] < 0.5) | ((h2h["win_rate"] == 0.5) & (low < high))
    h2h = h2h[below.to_numpy()].assign(lower=np.minimum(low, high), upper=np.maximum(low, high))
    if every_pair:
        chosen = h2h.sort_values(["lower", "upper"], kind="stable")
    else:
        chosen = h2h.assign(gap=h2h["upper"] - h2h["lower"]).sort_values(["lower", "gap"], ascending=[False, True])
        chosen = chosen.head(1)
    return pd.DataFrame([_luck_row(row) for _, row in chosen.iterrows()], columns=columns)


def _luck_row(row: pd.Series) -> dict:
    """One head-to-head row of :func:`skill_and_luck`: the upset share, the rating spread and the luck share."""
    upset = np.array([row["win_rate"], row["ci_low"], row["ci_high"]], dtype=float)
    with np.errstate(divide="ignore"):
        spread = np.log((1 - upset) / upset)[[0, 2, 1]]  # the upset interval's ends swap
    out = {
        "weaker": row["bot"],
        "stronger": row["opponent"],
        "num_games": int(row["num_games"]),
        "num_comparisons": int(row["num_comparisons"]),
    }
    for name, values in (
        ("upset", upset),
        ("spread", spread),
        ("elo_spread", spread * ELO_SCALE),
        ("luck", np.minimum(2 * upset, 1.0)),
    ):
        out[name], out[f"{name}_low"], out[f"{name}_high"] = values
    return out


def effect_levels(effects: pd.DataFrame, precision: float = PRECISION) -> pd.DataFrame:
    """Whether each effect of a what-if holds at every skill level, from its effects measured at several rungs.

    ``effects`` needs ``rung``, ``variant_name``, ``quantity``, ``diff``, ``adj_low``, ``adj_high`` and
    ``significant`` (one row per rung, variant and quantity: ``analysis.stats.paired.compare_variants`` rows of one
    experiment per rung). Returns one row per variant and quantity: ``variant_name``, ``quantity``, ``num_rungs``,
    ``verdict`` (:data:`VERDICT_CLASSES`: ``holds at every skill level`` when the effect is detected with one sign at
    every rung, or settled within ``precision`` of 0 at every rung; ``changes with skill`` when it is detected at
    one rung and settled the other way or detected with the other sign at another; else ``unresolved``) and
    ``by_rung`` (the effect and interval at each rung, in words).
    """
    require_columns(
        effects, ["rung", "variant_name", "quantity", "diff", "adj_low", "adj_high", "significant"], "effects"
    )
    rows = []
    for (variant, quantity), part in effects.groupby(["variant_name", "quantity"], sort=False):
        sig = part["significant"].to_numpy(bool)
        sign = np.sign(part["diff"].to_numpy(float))
        reach = np.maximum(part["adj_high"].abs(), part["adj_low"].abs()).to_numpy(float)
        settled_null = ~sig & (reach <= precision)
        if (sig.all() and len(set(sign)) == 1) or settled_null.all():
            verdict = HOLDS
        elif sig.any() and (settled_null.any() or len(set(sign[sig])) > 1):
            verdict = CHANGES
        else:
            verdict = UNRESOLVED
        rate = "unit" not in part or str(part["unit"].iloc[0]) == "rate"
        scale, unit = (100, " pp") if rate else (1, " points")
        words = "; ".join(
            f"{r.rung} {scale * r.diff:+.1f}{unit} ({scale * r.adj_low:+.1f} to {scale * r.adj_high:+.1f})"
            for r in part.itertuples()
        )
        rows.append([variant, quantity, len(part), verdict, words])
    return pd.DataFrame(rows, columns=["variant_name", "quantity", "num_rungs", "verdict", "by_rung"])
