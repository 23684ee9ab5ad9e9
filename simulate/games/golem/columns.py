"""Golem's results from finished game records: every seat's score and its parts, ranks and wins, and the solo
Automa's score parts."""

from __future__ import annotations

import numpy as np
from numba import njit

import simulate.play as loop
from simulate.games.golem.data import GolemData
from simulate.games.golem.engine import NUM_PARTS, automa_parts, score_parts

SCORE_PARTS = (
    "score_vp",
    "score_golems",
    "score_artifacts",
    "score_books",
    "score_study",
    "score_objectives",
    "score_objective_types",
    "score_leftover",
)


@njit(cache=True)
def _results(st, tab, score, parts, rank, win, automa):
    tb = tab[0]
    pt = np.zeros(NUM_PARTS, np.int64)
    for g in range(st.shape[0]):
        r = st[g]
        n = r.n
        loop.score_seats(score_parts, r, tb, n, g, pt, score, parts)
        if r.automa:
            # solo: the player against the Automa; a tie goes to the uppermost Rabbi of round 4
            automa_parts(r, tb, pt)
            au = pt[0] + pt[1] + pt[2]
            for k in range(3):
                automa[g, k] = pt[k]
            beaten = score[g, 0] > au or (score[g, 0] == au and r.au_pos > 0)
            rank[g, 0] = 1 if beaten else 2
            win[g, 0] = 1.0 if beaten else 0.0
            continue
        # rank by score, then by the final turn order (the uppermost Rabbi)
        for s in range(n):
            pos_s = 0
            for k in range(n):
                if r.order[k] == s:
                    pos_s = k
            better = 0
            for o in range(n):
                if o == s:
                    continue
                pos_o = 0
                for k in range(n):
                    if r.order[k] == o:
                        pos_o = k
                if score[g, o] > score[g, s] or (score[g, o] == score[g, s] and pos_o < pos_s):
                    better += 1
            rank[g, s] = better + 1
            win[g, s] = 1.0 if better == 0 else 0.0


def results(data: GolemData, st: np.ndarray) -> dict[str, np.ndarray]:
    """Scores (G, n), parts (G, n, NUM_PARTS), ranks and wins of finished games, and the solo Automa's
    score parts (G, 3): Main Strategy tile, Strategy tile, Special Developments (-1 where no Automa plays)."""
    g = st.shape[0]
    n = int(st["n"][0]) if g else 1
    res = loop.result_arrays(g, n, NUM_PARTS) | {"automa": np.full((g, 3), -1, np.int32)}
    if g:
        _results(st, data.kernel, *res.values())
    return res
