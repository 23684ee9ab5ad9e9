"""Synthetic run tables with a known truth, in the run format (docs/run-format.md).

:func:`synthetic_run` plays no game: it draws Century-shaped tables (opening rows of merchant
and point cards, acquisitions, score parts) from a simple additive score model, so tests and
notebooks can check that the statistics recover what was planted:

    score = score_mean + seat_advantage[seat] + bot_strength[bot] + u[setup, seat]
            + feature shift (seat 1 only) + component effects of the cards the seat acquired
            + Normal(0, score_sd), rounded to an integer and clipped at 0,

with ``u[setup, seat] ~ Normal(0, setup_sd)`` shared by all replays of a setup. All effects are in
points. Winners, ranks, shared or seat-broken ties and the fractional ``win`` follow the run
format's rules.

:func:`nested_margins` and :func:`nested_deal_winners` draw the seat rows of nested designs (public openings >
hidden orders > plays, as the runner's ``--orders-per-opening`` deals them) with planted variance components or
planted shares of games whose winner the opening or the hidden order fixes, for the setup statistics
(``analysis.stats.setups``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

import numpy as np
import pandas as pd
import pyarrow as pa

from analysis.stats._util import ensure_rng

__all__ = ["MERCHANT_POOL", "POINT_POOL", "SyntheticRun", "nested_deal_winners", "nested_margins", "synthetic_run"]

MERCHANT_POOL: tuple[str, ...] = tuple(f"M{i:02d}" for i in range(1, 44))
"""Market merchant card ids of Century (``merchant_cards.csv`` minus the starting cards)."""
POINT_POOL: tuple[str, ...] = tuple(f"P{i:02d}" for i in range(1, 37))
"""Point card ids of Century."""
_ROWS = (("merchant", 6, MERCHANT_POOL), ("point", 5, POINT_POOL))
_CHUNK = 50_000


class SyntheticRun(NamedTuple):
    """Tables of a synthetic run and the truth planted in them."""

    games: pd.DataFrame
    seats: pd.DataFrame
    components: pd.DataFrame
    truth: dict[str, Any]
    """``fair`` (1/n); ``seat_advantage`` (points per seat); ``seat_margin`` (the expected margin
    of each seat over the mean of the others in a mirror match); ``setup_icc`` (the intraclass
    correlation of seat margins, setup_sd^2 / (setup_sd^2 + score_sd^2), exact before integer
    rounding, which adds about 1/12 to the within-setup variance, and without bot, feature or
    component effects); ``bot_strength``, ``feature_effects``, ``component_effects`` (points);
    ``setup_effects`` (DataFrame ``setup_id``, ``seat``, ``effect``: each setup's planted shift of
    that seat's score, including feature shifts)."""


def _labels(pool: Sequence[str], codes: np.ndarray) -> pd.Series:
    """String column ``pool[codes]``, built through Arrow (fast for millions of rows)."""
    labels = pa.DictionaryArray.from_arrays(pa.array(np.asarray(codes, dtype=np.int32)), pa.array(list(pool)))
    return pd.Series(pd.array(labels.cast(pa.string()), dtype="str"))


def synthetic_run(
    num_games: int = 10_000,
    num_players: int = 3,
    *,
    lineup: Sequence[str] | None = None,
    bot_strength: Mapping[str, float] | None = None,
    rotate_seats: bool = True,
    seat_advantage: Sequence[float] | None = None,
    games_per_setup: int = 1,
    setup_sd: float = 0.0,
    feature_effects: Mapping[str, float] | None = None,
    component_effects: Mapping[str, float] | None = None,
    acquire_rate: float = 0.15,
    score_mean: float = 60.0,
    score_sd: float = 8.0,
    tie_break: str = "shared",
    turn_cap_rate: float = 0.0,
    mean_rounds: float = 18.0,
    max_rounds: int = 200,
    random_state: int | np.random.Generator | None = 0,
) -> SyntheticRun:
    """Draw ``games``, ``seats`` and ``components`` tables with planted effects.

    Parameters
    ----------
    num_games, num_players
        Size of the run; ``num_players`` in 2..5.
    lineup
        Bot labels, one per lineup entry (default: ``["random"] * num_players``, mirror matches).
    bot_strength
        Points added to the score of each bot label (missing labels: 0).
    rotate_seats
        Rotation = replay index within the setup (the game index without replays) modulo
        ``num_players``; seat ``s`` (1-based) plays ``lineup[(s - 1 + rotation) % n]``.
    seat_advantage
        Points added to each seat's score, e.g. ``[3, 0, 0]`` (default none).
    games_per_setup
        Replays per setup: ``setup_id = game // games_per_setup``.
    setup_sd
        Standard deviation (points) of each setup's random shift of each seat's score.
    feature_effects
        ``{"setup_point=P07": 4.0}``: points added to seat 1 when that card is in that opening row,
        in any position (families ``setup_merchant`` and ``setup_point``).
    component_effects
        ``{"M09": 3.0}``: points added to the seat that acquired the card.
    acquire_rate
        Chance that each card of the two pools is acquired in a game, by a uniform random seat, in
        a uniform random round.
    score_mean, score_sd
        Score model location and noise (points).
    tie_break
        ``"shared"`` (tied winners share the win) or ``"later_seat"``.
    turn_cap_rate
        Share of games that end by the turn cap (``max_rounds`` rounds).
    random_state
        Seed or generator.

    Returns
    -------
    SyntheticRun
        ``games``, ``seats``, ``components`` with the run-format columns and dtypes (Century's
        game-specific columns included) and the ``truth`` dict.
    """
    n = int(num_players)
    if not 2 <= n <= 5:
        raise ValueError(f"num_players must be in 2..5, got {num_players}")
    if tie_break not in ("shared", "later_seat"):
        raise ValueError(f"tie_break must be 'shared' or 'later_seat', got {tie_break!r}")
    if games_per_setup < 1 or num_games < 1:
        raise ValueError("num_games and games_per_setup must be positive")
    rng = ensure_rng(random_state)
    lineup = list(lineup) if lineup is not None else ["random"] * n
    if len(lineup) != n:
        raise ValueError(f"lineup has {len(lineup)} entries for {n} players")
    bot_strength = dict(bot_strength or {})
    seat_adv = np.zeros(n) if seat_advantage is None else np.asarray(seat_advantage, dtype=float)
    if seat_adv.shape != (n,):
        raise ValueError(f"seat_advantage needs {n} values, got {len(seat_adv)}")
    feature_effects = dict(feature_effects or {})
    component_effects = dict(component_effects or {})

    num_g = int(num_games)
    game = np.arange(num_g, dtype=np.int64)
    setup_id = game // games_per_setup
    num_setups = int(setup_id[-1]) + 1
    within = game % games_per_setup if games_per_setup > 1 else game  # replay index, as the runner
    rotation = (within % n) if rotate_seats else np.zeros(num_g, dtype=np.int64)

    # Opening rows: distinct cards per setup, in random order.
    rows: dict[str, np.ndarray] = {}
    for kind, width, pool in _ROWS:
        chosen = np.empty((num_setups, width), dtype=np.intp)
        for start in range(0, num_setups, _CHUNK):
            stop = min(start + _CHUNK, num_setups)
            chosen[start:stop] = np.argsort(rng.random((stop - start, len(pool))), axis=1)[:, :width]
        rows[kind] = chosen

    # Setup shifts of each seat's score (points): random effect plus features on seat 1.
    setup_shift = np.zeros((num_setups, n))
    if setup_sd > 0:
        setup_shift += rng.normal(0.0, setup_sd, size=(num_setups, n))
    for feature, effect in feature_effects.items():
        family, _, value = feature.partition("=")
        kind = family.removeprefix("setup_")
        pools = {k: p for k, _, p in _ROWS}
        if kind not in pools or value not in pools[kind]:
            raise ValueError(f"unknown feature {feature!r}; use e.g. 'setup_point=P07', 'setup_merchant=M09'")
        present = (rows[kind] == pools[kind].index(value)).any(axis=1)
        setup_shift[present, 0] += effect

    # Game length and end reason.
    rounds = np.maximum(3, np.rint(rng.normal(mean_rounds, 2.0, size=num_g))).astype(np.int64)
    capped = rng.random(num_g) < turn_cap_rate
    rounds[capped] = max_rounds
    turns = rounds * n

    # Acquisitions: each pool card acquired with probability acquire_rate by a random seat.
    all_cards = MERCHANT_POOL + POINT_POOL
    card_kind = np.array([0] * len(MERCHANT_POOL) + [1] * len(POINT_POOL))
    card_effect = np.array([float(component_effects.get(c, 0.0)) for c in all_cards])
    unknown = set(component_effects) - set(all_cards)
    if unknown:
        raise ValueError(f"unknown component(s) {sorted(unknown)}")
    parts = []
    for start in range(0, num_g, _CHUNK):
        stop = min(start + _CHUNK, num_g)
        hit = rng.random((stop - start, len(all_cards))) < acquire_rate
        g_idx, c_idx = np.nonzero(hit)
        g_idx = g_idx + start
        s_idx = rng.integers(0, n, size=len(g_idx))
        r_idx = np.floor(rng.random(len(g_idx)) * rounds[g_idx]).astype(np.int64)
        parts.append((g_idx, s_idx, c_idx, r_idx))
    comp_game = np.concatenate([p[0] for p in parts])
    comp_seat = np.concatenate([p[1] for p in parts])
    comp_card = np.concatenate([p[2] for p in parts])
    comp_round = np.concatenate([p[3] for p in parts])
    flat = comp_game * n + comp_seat
    comp_bonus = np.bincount(flat, weights=card_effect[comp_card], minlength=num_g * n).reshape(num_g, n)
    num_merchant = np.bincount(flat, weights=card_kind[comp_card] == 0, minlength=num_g * n).reshape(num_g, n)
    num_point = np.bincount(flat, weights=card_kind[comp_card] == 1, minlength=num_g * n).reshape(num_g, n)

    # Scores.
    lineup_idx = (np.arange(n)[None, :] + rotation[:, None]) % n  # (games, seats)
    strength = np.array([float(bot_strength.get(label, 0.0)) for label in lineup])
    latent = (
        score_mean
        + seat_adv[None, :]
        + strength[lineup_idx]
        + setup_shift[setup_id]
        + comp_bonus
        + rng.normal(0.0, score_sd, size=(num_g, n))
    )
    score = np.maximum(np.rint(latent), 0).astype(np.int64)

    # Ranks, wins and ties.
    top = score.max(axis=1, keepdims=True)
    at_top = score == top
    num_top = at_top.sum(axis=1)
    tied = num_top > 1
    seat_no = np.arange(n)[None, :]
    if tie_break == "shared":
        rank = 1 + (score[:, None, :] > score[:, :, None]).sum(axis=2)
        win = at_top / num_top[:, None]
        winner_seat = np.where(tied, -1, at_top.argmax(axis=1) + 1)
    else:
        key = score * n + seat_no
        rank = 1 + (key[:, None, :] > key[:, :, None]).sum(axis=2)
        win = (rank == 1).astype(float)
        winner_seat = key.argmax(axis=1) + 1

    # Score parts (Century): crystals, copper (3 VP each), silver (1 VP each), point cards.
    crystals_left = rng.poisson(3.0, size=(num_g, n))
    score_crystals = np.minimum(rng.binomial(crystals_left, 0.7), score)
    copper = np.minimum(rng.poisson(0.6, size=(num_g, n)), (score - score_crystals) // 3)
    silver = np.minimum(rng.poisson(0.8, size=(num_g, n)), score - score_crystals - 3 * copper)
    score_points = score - score_crystals - 3 * copper - silver

    games = pd.DataFrame(
        {
            "game": game,
            "setup_id": setup_id,
            "setup_seed": rng.integers(0, 2**63, size=num_setups, dtype=np.int64).astype(np.uint64)[setup_id],
            "play_seed": rng.integers(0, 2**63, size=num_g, dtype=np.int64).astype(np.uint64),
            "num_players": np.full(num_g, n, dtype=np.int8),
            "rotation": rotation.astype(np.int8),
            "turns": turns.astype(np.int32),
            "rounds": rounds.astype(np.int32),
            "end_reason": _labels(["trigger", "turn_cap"], capped.astype(np.intp)),
            "winner_seat": winner_seat.astype(np.int8),
            "tied": tied,
        }
    )
    for kind, width, pool in _ROWS:
        for pos in range(width):
            games[f"setup_{kind}_{pos + 1}"] = _labels(pool, rows[kind][setup_id, pos])

    def flat_seats(a: np.ndarray, dtype: Any) -> np.ndarray:
        return a.reshape(-1).astype(dtype)

    seats = pd.DataFrame(
        {
            "game": np.repeat(game, n),
            "setup_id": np.repeat(setup_id, n),
            "num_players": np.full(num_g * n, n, dtype=np.int8),
            "seat": np.tile(np.arange(1, n + 1, dtype=np.int8), num_g),
            "bot": _labels(lineup, lineup_idx.reshape(-1)),
            "score": flat_seats(score, np.int32),
            "rank": flat_seats(rank, np.int8),
            "win": flat_seats(win, np.float32),
            "score_points": flat_seats(score_points, np.int32),
            "score_copper": flat_seats(3 * copper, np.int32),
            "score_silver": flat_seats(silver, np.int32),
            "score_crystals": flat_seats(score_crystals, np.int32),
            "num_point_cards": flat_seats(num_point, np.int32),
            "num_merchant_cards": flat_seats(2 + num_merchant, np.int32),
            "copper": flat_seats(copper, np.int32),
            "silver": flat_seats(silver, np.int32),
            "crystals_left": flat_seats(crystals_left, np.int32),
        }
    )

    comp_turn = comp_round * n + comp_seat
    order = np.lexsort((comp_card, comp_turn, comp_game))
    components = pd.DataFrame(
        {
            "game": comp_game[order].astype(np.int64),
            "seat": (comp_seat[order] + 1).astype(np.int8),
            "component": _labels(all_cards, comp_card[order]),
            "kind": _labels(["merchant", "point"], card_kind[comp_card[order]]),
            "turn": comp_turn[order].astype(np.int32),
            "round": comp_round[order].astype(np.int32),
        }
    )

    truth = {
        "fair": 1.0 / n,
        "seat_advantage": seat_adv,
        "seat_margin": seat_adv - (seat_adv.sum() - seat_adv) / (n - 1),
        "setup_icc": setup_sd**2 / (setup_sd**2 + score_sd**2),
        "bot_strength": {label: float(bot_strength.get(label, 0.0)) for label in dict.fromkeys(lineup)},
        "feature_effects": feature_effects,
        "component_effects": component_effects,
        "setup_effects": pd.DataFrame(
            {
                "setup_id": np.repeat(np.arange(num_setups, dtype=np.int64), n),
                "seat": np.tile(np.arange(1, n + 1, dtype=np.int8), num_setups),
                "effect": setup_shift.reshape(-1),
            }
        ),
    }
    return SyntheticRun(games, seats, components, truth)


def _nested_ids(openings: int, orders: int, plays: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    if min(openings, orders, plays) < 1:
        raise ValueError("openings, orders and plays must be positive")
    game = np.arange(openings * orders * plays, dtype=np.int64)
    setup_id = game // plays
    return game, setup_id, setup_id // orders


def _nested_seats(
    game: np.ndarray, opening_id: np.ndarray, setup_id: np.ndarray, score: np.ndarray, win: np.ndarray
) -> pd.DataFrame:
    num_games, n = score.shape
    return pd.DataFrame(
        {
            "game": np.repeat(game, n),
            "opening_id": np.repeat(opening_id, n),
            "setup_id": np.repeat(setup_id, n),
            "num_players": np.full(num_games * n, n, dtype=np.int8),
            "seat": np.tile(np.arange(1, n + 1, dtype=np.int8), num_games),
            "score": score.reshape(-1),
            "win": win.reshape(-1).astype(float),
        }
    )


def nested_margins(
    openings: int,
    orders: int,
    plays: int,
    sd: tuple[float, float, float],
    num_players: int = 2,
    random_state: int | np.random.Generator | None = 0,
) -> pd.DataFrame:
    """Seat rows of a nested design whose scores are the sum of three planted normal effects per seat: the public
    opening's (SD ``sd[0]``), the hidden order's given the opening (``sd[1]``) and the play's (``sd[2]``); the top
    score wins (ties are measure zero).

    Seat 1's score margin then has the variance components ``c * sd[k] ** 2`` (``c = n / (n - 1)``, the margin
    being the seat's effect minus the mean of the others'), so its true shares are ``sd[k] ** 2 / sum(sd ** 2)``.
    Returns ``game``, ``opening_id``, ``setup_id``, ``num_players``, ``seat``, ``score``, ``win``.
    """
    rng = ensure_rng(random_state)
    game, setup_id, opening_id = _nested_ids(openings, orders, plays)
    n = int(num_players)
    score = (
        sd[0] * rng.standard_normal((openings, n))[opening_id]
        + sd[1] * rng.standard_normal((openings * orders, n))[setup_id]
        + sd[2] * rng.standard_normal((len(game), n))
    )
    win = score == score.max(axis=1, keepdims=True)
    return _nested_seats(game, opening_id, setup_id, score, win)


def nested_deal_winners(
    openings: int,
    orders: int,
    plays: int,
    opening_fixes: float = 0.0,
    order_fixes: float = 0.0,
    tilt: float = 0.0,
    num_players: int = 2,
    random_state: int | np.random.Generator | None = 0,
) -> pd.DataFrame:
    """Seat rows of a nested design with a planted share of games whose winner the deal fixes.

    An opening fixes its winner (a uniform seat, the same in every play of every hidden order) with chance
    ``opening_fixes``; in the other openings a hidden order fixes its winner (the same in every play) with chance
    ``order_fixes / (1 - opening_fixes)``, so ``opening_fixes`` and ``order_fixes`` are the shares of all games each
    fixes, and the whole deal fixes ``opening_fixes + order_fixes``. Every other game's winner is drawn afresh: seat 1
    with chance ``1 / n + t`` and the others ``1 / n - t / (n - 1)`` each, where each hidden order tilts ``t = +tilt``
    or ``-tilt`` (equally often): a smooth effect of the deal that fixes no game. ``score`` is the win (1 or 0).
    Returns the columns of :func:`nested_margins`.
    """
    if not 0 <= opening_fixes + order_fixes <= 1 or min(opening_fixes, order_fixes) < 0:
        raise ValueError("opening_fixes and order_fixes are shares of games adding to at most 1")
    n = int(num_players)
    if not 0 <= tilt <= 1 / n:
        raise ValueError(f"tilt must be in [0, 1/{n}]")
    rng = ensure_rng(random_state)
    game, setup_id, opening_id = _nested_ids(openings, orders, plays)
    num_setups = openings * orders
    by_opening = rng.random(openings) < opening_fixes
    rest = order_fixes / (1 - opening_fixes) if opening_fixes < 1 else 0.0
    by_order = rng.random(num_setups) < rest
    t = np.where(rng.random(num_setups) < 0.5, tilt, -tilt)[setup_id]
    u = rng.random(len(game))
    first = 1 / n + t
    drawn = np.where(u < first, 0, 1 + np.floor((u - first) / ((1 - first) / (n - 1))).astype(np.int64))
    winner = np.minimum(drawn, n - 1)
    winner = np.where(by_order[setup_id], rng.integers(0, n, num_setups)[setup_id], winner)
    winner = np.where(by_opening[opening_id], rng.integers(0, n, openings)[opening_id], winner)
    win = winner[:, None] == np.arange(n)[None, :]
    return _nested_seats(game, opening_id, setup_id, win.astype(float), win)
