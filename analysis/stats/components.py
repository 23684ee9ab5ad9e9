"""Component strength: how seats that acquired a component (card, tile) fare against seats that
did not, overall and by when in the game they acquired it.

This is association, not cause: strong play both acquires good cards and wins, a card taken late
was taken by a seat already ahead or behind, and seats that did not acquire a card include seats
whose opponent took it. Read a large effect as "worth a closer look", never as "this card is
too strong".
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats

from analysis.stats._util import (
    check_alpha,
    game_codes,
    multiple_tests,
    require_columns,
    seat_margins,
    t_confint,
    welch,
    wilson_confint,
)

__all__ = ["ASSOCIATION_NOTE", "PHASES", "component_strength"]

PHASES = ("any", "early", "mid", "late")
"""``any``: acquired at all; ``early``/``mid``/``late``: first acquired in that tercile of the rounds."""

_CHUNK = 1 << 20  # acquisitions per pass chunk

ASSOCIATION_NOTE = "association, not cause: seats that acquired a component are compared with seats that did not"


def _lookup(keys: np.ndarray, table_keys: np.ndarray) -> np.ndarray:
    """Position of each of ``keys`` in ``table_keys`` (unique non-negative ints), -1 if absent."""
    if len(table_keys) == 0:
        return np.full(len(keys), -1, dtype=np.intp)
    top = int(max(table_keys.max(), keys.max() if len(keys) else 0))
    if top < 16 * len(table_keys) + 1024 and table_keys.min() >= 0 and (len(keys) == 0 or keys.min() >= 0):
        dense = np.full(top + 1, -1, dtype=np.intp)
        dense[table_keys] = np.arange(len(table_keys))
        return dense[keys]
    order = np.argsort(table_keys, kind="stable")
    pos = np.searchsorted(table_keys[order], keys)
    pos = np.minimum(pos, len(order) - 1)
    found = table_keys[order][pos] == keys
    return np.where(found, order[pos], -1)


def _all_unique(keys: np.ndarray, key_range: int) -> bool:
    """Whether non-negative int ``keys`` (all below ``key_range``) hold no repeated value."""
    if key_range <= 256_000_000:
        seen = np.zeros(key_range, dtype=bool)
        seen[keys] = True
        return int(np.count_nonzero(seen)) == len(keys)
    return not pd.Series(keys).duplicated().any()


def _stats(n: np.ndarray, total: np.ndarray, square: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    with np.errstate(divide="ignore", invalid="ignore"):
        mean = total / n
        var = np.maximum((square - n * mean**2) / (n - 1), 0.0)
    return mean, var


def _chunks(length: int) -> list[slice]:
    """Row slices of ``_CHUNK`` rows: per-row temporaries stay small and reuse memory."""
    return [slice(i, min(i + _CHUNK, length)) for i in range(0, length, _CHUNK)]


def _cluster_terms(
    pairs: dict[str, np.ndarray | float | None],
    y_game: np.ndarray,
    game_n: np.ndarray,
    m0: np.ndarray,
    m1: np.ndarray,
    inv_n0: np.ndarray,
    inv_n1: np.ndarray,
    cells: int,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per-cell sums for the game-clustered variance of (acquired mean - baseline mean).

    The influence of game g on the difference is psi_g = d_g - r_g / n0, with d_g the acquirers'
    summed deviations from their mean / n1 and r_g the baseline seats' summed deviations from
    theirs. ``pairs`` describes (component, game) pairs that had acquirers: ``game``, ``cell``
    ("any" cell), ``a``/``k`` (sum of y and count of acquirers) and, for phases, ``p_cell``,
    ``p_a``, ``p_k`` and ``p_pair`` (index of the pair, None when aligned). Returns sum r_g^2 and
    sum dev_g^2 (all seats, around the baseline mean) by "any" cell, and sum d_g (d_g - 2 r_g / n0)
    by cell.
    """
    cell = pairs["cell"]
    m0_pair = m0[cell]
    dev = y_game[pairs["game"]] - game_n[pairs["game"]] * m0_pair
    rest = dev - (pairs["a"] - pairs["k"] * m0_pair)
    rest2 = np.bincount(cell, weights=rest * rest, minlength=cells)
    dev2 = np.bincount(cell, weights=dev * dev, minlength=cells)
    d = (pairs["a"] - pairs["k"] * m1[cell]) * inv_n1[cell]
    terms = np.bincount(cell, weights=d * (d - 2 * rest * inv_n0[cell]), minlength=cells)
    if pairs.get("p_cell") is not None:
        p_cell = pairs["p_cell"]
        p_rest = rest if pairs["p_pair"] is None else rest[pairs["p_pair"]]
        d = (pairs["p_a"] - pairs["p_k"] * m1[p_cell]) * inv_n1[p_cell]
        terms += np.bincount(p_cell, weights=d * (d - 2 * p_rest * inv_n0[p_cell]), minlength=cells)
    return rest2, terms, dev2


def component_strength(
    seats: pd.DataFrame,
    components: pd.DataFrame,
    games: pd.DataFrame | None = None,
    alpha: float = 0.05,
    correction: str | None = "holm",
    min_count: int = 10,
) -> pd.DataFrame:
    """Win rate and score margin of seats that acquired each component against seats that did not.

    Required columns: seats ``game``, ``seat``, ``num_players``, ``score``, ``win``;
    components ``game``, ``seat``, ``component``, ``kind``, ``round``; games (optional, for the
    phases) ``game``, ``rounds``. Phases need every ``round``: with any round of -1 (not
    recorded by the game) only the "any" phase is reported.

    A seat counts once per component however often it took it; its phase is that of its first
    acquisition: ``early``, ``mid`` or ``late`` for round / rounds (the game's complete rounds)
    in [0, 1/3), [1/3, 2/3), [2/3, ...). The baseline of every phase is the seats (of the same
    player count) that never acquired the component. Differences are Welch-type t tests whose
    standard errors are clustered by game (seats of a game are dependent: their wins sum to 1,
    and the baseline holds the acquirers' opponents). ``correction`` (a ``statsmodels``
    ``multipletests`` method, or None) is applied over the components of each player count and
    phase, and the difference intervals are adjusted to match (for Holm, the level at which an
    interval excludes 0 exactly when the win difference is significant; Bonferroni for the other
    family-wise methods, false-coverage-rate for ``fdr_*``). Rows with fewer than ``min_count`` acquiring
    seats are dropped.

    Scores are compared as margins (a seat's score minus the mean of the other seats' scores in
    its game), so a component that merely goes with long, high-scoring games, where every seat
    scores more, shows no score difference. Solo games have no margin (NaN).

    Returns one row per ``num_players``, ``component`` and ``phase``: ``kind``,
    ``num_acquired``, ``num_not``, ``win_rate``, ``win_low``, ``win_high`` (Wilson, unadjusted,
    acquiring seats), ``win_rate_not``, ``win_diff``, ``win_diff_low``, ``win_diff_high``,
    ``margin_mean``, ``margin_mean_not``, ``margin_diff``, ``margin_diff_low``,
    ``margin_diff_high`` (points), ``pvalue``, ``pvalue_adj``, ``significant`` (for the win
    difference). The frame's
    ``attrs["note"]`` says it is an association (see :data:`ASSOCIATION_NOTE`).
    """
    check_alpha(alpha)
    require_columns(seats, ["game", "seat", "num_players", "score", "win"], "seats")
    require_columns(components, ["game", "seat", "component", "kind", "round"], "components")
    if games is not None:
        require_columns(games, ["game", "rounds"], "games")
    if len(components) == 0 or len(seats) == 0:
        return _finish([], alpha, correction)

    seat_game = seats["game"].to_numpy(dtype=np.int64)
    seat_no = seats["seat"].to_numpy(dtype=np.int64)
    comp_game = components["game"].to_numpy(dtype=np.int64)
    comp_seat = components["seat"].to_numpy(dtype=np.int64)
    span = int(max(seat_no.max(), comp_seat.max())) + 1
    key = comp_game * span
    key += comp_seat
    del comp_seat  # the large per-acquisition temporaries are freed as soon as they are used
    row = _lookup(key, seat_game * span + seat_no)
    del key
    if np.any(row < 0):
        raise ValueError(f"{int(np.sum(row < 0))} component rows have no matching (game, seat) in seats")

    comp_codes, comp_names = pd.factorize(components["component"], sort=True)
    comp_names = np.asarray(comp_names, dtype=object)
    num_comp = len(comp_names)
    first_row = np.zeros(num_comp, dtype=np.intp)
    first_row[comp_codes[::-1]] = np.arange(len(comp_codes))[::-1]
    kinds = components["kind"].iloc[first_row].astype("str").to_numpy(dtype=object)
    rnd = components["round"].to_numpy(dtype=np.int64)
    # a round of -1 (the game logs only what a seat ends with) leaves the "any" phase alone
    with_phases = games is not None and not np.any(rnd < 0)
    if with_phases:
        pos = _lookup(comp_game, games["game"].to_numpy(dtype=np.int64))
        if np.any(pos < 0):
            raise ValueError("some component rows have no matching game in games")
        rounds = np.maximum(games["rounds"].to_numpy(dtype=np.int64)[pos], 1)
        del pos
        phase = (np.clip((3 * rnd) // rounds, 0, 2) + 1).astype(np.int8)
        del rounds
    else:
        phase = np.zeros(len(rnd), dtype=np.int8)

    game_code, num_games = game_codes(seat_game)
    np_codes, np_values = pd.factorize(seats["num_players"].to_numpy(), sort=True)
    num_np = len(np_values)
    cells = num_np * num_comp * 4  # (player count, component, phase slot 0 = any, 1..3)
    cell = np.arange(cells)
    cell_np, rest = np.divmod(cell, num_comp * 4)
    cell_comp, cell_phase = np.divmod(rest, 4)
    any_of = cell - cell_phase  # the "any" cell of each cell's component

    # (component, game) pairs are unique when a component exists once per game (Century's
    # cards): each acquisition is then its own pair, and no dedupe or aggregation is needed.
    acq_game = game_code[row]
    key_cg = acq_game.astype(np.int64) * num_comp + comp_codes
    unique = _all_unique(key_cg, num_games * num_comp)
    if not unique:
        # One acquisition per (seat row, component): the earliest.
        key = row.astype(np.int64) * num_comp + comp_codes
        keep = np.ones(len(key), dtype=bool)
        idx = np.flatnonzero(pd.Series(key).duplicated(keep=False).to_numpy())
        min_round = pd.Series(rnd[idx]).groupby(key[idx]).transform("min").to_numpy()
        keep[idx[rnd[idx] != min_round]] = False
        candidates = np.flatnonzero(keep)
        keep[candidates[pd.Series(key[candidates]).duplicated().to_numpy()]] = False
        row, comp_codes, phase, acq_game = row[keep], comp_codes[keep], phase[keep], acq_game[keep]
        key_cg = key_cg[keep]
    cell_any = (np_codes[row] * num_comp + comp_codes) * 4

    # Pass 1: counts, sums and squares of the acquiring seats per cell.
    ys = {"win": seats["win"].to_numpy(dtype=float), "margin": seat_margins(seats)}
    n1 = np.zeros(cells)
    s1 = {name: np.zeros(cells) for name in ys}
    q1 = {name: np.zeros(cells) for name in ys}
    for sl in _chunks(len(row)):
        c_any = cell_any[sl]
        y_rows = {name: y[row[sl]] for name, y in ys.items()}
        for key in [c_any, c_any + phase[sl]] if with_phases else [c_any]:
            n1 += np.bincount(key, minlength=cells)
            for name, y_row in y_rows.items():
                s1[name] += np.bincount(key, weights=y_row, minlength=cells)
                q1[name] += np.bincount(key, weights=y_row * y_row, minlength=cells)
    count_np = np.bincount(np_codes, minlength=num_np).astype(float)
    n0 = count_np[cell_np] - n1[any_of]
    inv_n1 = np.divide(1.0, n1, out=np.zeros(cells), where=n1 > 0)
    inv_n0 = np.divide(1.0, n0, out=np.zeros(cells), where=n0 > 0)

    # Pass 2: (component, game) pairs with acquirers, for the game-clustered variance.
    if unique:

        def pair_chunks(y: np.ndarray):  # each acquisition is its own pair
            for sl in _chunks(len(row)):
                y_row = y[row[sl]]
                c_any = cell_any[sl]
                yield {
                    "game": acq_game[sl],
                    "cell": c_any,
                    "a": y_row,
                    "k": 1.0,
                    "p_cell": c_any + phase[sl] if with_phases else None,
                    "p_a": y_row,
                    "p_k": 1.0,
                    "p_pair": None,
                }
    else:
        cg, _ = pd.factorize(key_cg)
        cp, _ = pd.factorize(cg.astype(np.int64) * 4 + phase)
        num_cg, num_cp = int(cg.max()) + 1, int(cp.max()) + 1
        cg_game, cg_cell = np.zeros(num_cg, dtype=np.intp), np.zeros(num_cg, dtype=np.int64)
        cg_game[cg], cg_cell[cg] = acq_game, cell_any
        cp_pair, cp_cell = np.zeros(num_cp, dtype=np.intp), np.zeros(num_cp, dtype=np.int64)
        cp_pair[cp], cp_cell[cp] = cg, cell_any + phase
        cg_k = np.bincount(cg, minlength=num_cg).astype(float)
        cp_k = np.bincount(cp, minlength=num_cp).astype(float)

        def pair_chunks(y: np.ndarray):  # aggregated pairs, in one piece
            y_row = y[row]
            yield {
                "game": cg_game,
                "cell": cg_cell,
                "a": np.bincount(cg, weights=y_row, minlength=num_cg),
                "k": cg_k,
                "p_cell": cp_cell if with_phases else None,
                "p_a": np.bincount(cp, weights=y_row, minlength=num_cp),
                "p_k": cp_k,
                "p_pair": cp_pair,
            }

    game_np = np.zeros(num_games, dtype=np.intp)
    game_np[game_code] = np_codes
    game_n = np.bincount(game_code, minlength=num_games).astype(float)
    summary = {}
    for name, y in ys.items():
        total_np = np.bincount(np_codes, weights=y, minlength=num_np)
        square_np = np.bincount(np_codes, weights=y * y, minlength=num_np)
        s0 = total_np[cell_np] - s1[name][any_of]
        q0 = square_np[cell_np] - q1[name][any_of]
        m1, v1 = _stats(n1, s1[name], q1[name])
        m0, v0 = _stats(n0, s0, q0)
        diff, _, df, _ = welch(n1, m1, v1, n0, m0, v0)

        y_game = np.bincount(game_code, weights=y, minlength=num_games)
        m0z, m1z = np.nan_to_num(m0), np.nan_to_num(m1)
        rest2, terms, dev2 = np.zeros(cells), np.zeros(cells), np.zeros(cells)
        for pairs in pair_chunks(y):
            r2, t, d2 = _cluster_terms(pairs, y_game, game_n, m0z, m1z, inv_n0, inv_n1, cells)
            rest2 += r2
            terms += t
            dev2 += d2
        # Games without acquirers: all their seats are baseline (all games minus those with).
        game_dev2 = (
            np.bincount(game_np, weights=y_game**2, minlength=num_np)[cell_np]
            - 2 * m0z * np.bincount(game_np, weights=game_n * y_game, minlength=num_np)[cell_np]
            + m0z**2 * np.bincount(game_np, weights=game_n**2, minlength=num_np)[cell_np]
        )
        var = terms + (rest2[any_of] + game_dev2 - dev2[any_of]) * inv_n0**2
        with np.errstate(divide="ignore", invalid="ignore"):
            se = np.sqrt(np.maximum(var, 0.0))
            pvalue = 2 * stats.t.sf(np.abs(diff / se), np.where(np.isfinite(df), df, 1e12))
        summary[name] = (s1[name], m1, m0, diff, se, df, pvalue)

    win_s1, win_m1, win_m0, win_diff, win_se, win_df, pvalue = summary["win"]
    _, margin_m1, margin_m0, margin_diff, margin_se, margin_df, _ = summary["margin"]
    win_low, win_high = wilson_confint(win_s1, n1, alpha)
    out = pd.DataFrame(
        {
            "num_players": np.asarray(np_values)[cell_np],
            "component": pd.Series(comp_names[cell_comp], dtype="str"),
            "kind": pd.Series(kinds[cell_comp], dtype="str"),
            "phase": pd.Series(np.asarray(PHASES, dtype=object)[cell_phase], dtype="str"),
            "num_acquired": n1.astype(np.int64),
            "num_not": n0.astype(np.int64),
            "win_rate": win_m1,
            "win_low": win_low,
            "win_high": win_high,
            "win_rate_not": win_m0,
            "win_diff": win_diff,
            "_win_se": win_se,
            "_win_df": win_df,
            "margin_mean": margin_m1,
            "margin_mean_not": margin_m0,
            "margin_diff": margin_diff,
            "_margin_se": margin_se,
            "_margin_df": margin_df,
            "pvalue": pvalue,
        }
    )
    out = out[(out["num_acquired"] >= max(min_count, 2)) & (out["num_not"] >= 2)].reset_index(drop=True)
    parts = [part for _, part in out.groupby(["num_players", "phase"], sort=False)]
    return _finish(parts, alpha, correction)


_COLUMNS = [
    "num_players",
    "component",
    "kind",
    "phase",
    "num_acquired",
    "num_not",
    "win_rate",
    "win_low",
    "win_high",
    "win_rate_not",
    "win_diff",
    "win_diff_low",
    "win_diff_high",
    "margin_mean",
    "margin_mean_not",
    "margin_diff",
    "margin_diff_low",
    "margin_diff_high",
    "pvalue",
    "pvalue_adj",
    "significant",
]


def _finish(parts: list[pd.DataFrame], alpha: float, correction: str | None) -> pd.DataFrame:
    """Adjust each (player count, phase) family for multiple comparisons and tidy the columns."""
    done = []
    for part in parts:  # player counts x 4 phases
        part = part.copy()
        p_adj, reject, level = multiple_tests(part["pvalue"].to_numpy(), alpha, correction)
        part["pvalue_adj"], part["significant"] = p_adj, reject
        part["win_diff_low"], part["win_diff_high"] = t_confint(
            part["win_diff"].to_numpy(), part["_win_se"].to_numpy(), part["_win_df"].to_numpy(), level
        )
        part["margin_diff_low"], part["margin_diff_high"] = t_confint(
            part["margin_diff"].to_numpy(), part["_margin_se"].to_numpy(), part["_margin_df"].to_numpy(), level
        )
        done.append(part[_COLUMNS])
    result = pd.concat(done, ignore_index=True) if done else pd.DataFrame(columns=_COLUMNS)
    phase_order = pd.Categorical(result["phase"], categories=list(PHASES), ordered=True)
    result = (
        result.assign(_phase=phase_order)
        .sort_values(["num_players", "_phase", "component"], kind="stable")
        .drop(columns="_phase")
        .reset_index(drop=True)
    )
    result.attrs["note"] = ASSOCIATION_NOTE
    return result
