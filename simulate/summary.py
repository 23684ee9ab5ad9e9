"""The tally of each chunk kept in the manifest, counted as the chunk is written (read by ``analysis.summary``)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

TALLY_GROUPS = ("seat", "bot")
"""Seat-row groups a chunk's tally counts (see :func:`chunk_tally`)."""


def chunk_tally(tables: dict[str, pa.Table]) -> dict[str, Any]:
    """What the summary needs of one chunk's tables, counted as the chunk is written (kept in the manifest).

    ``seat`` and ``bot``: per group, [seat rows, wins, sum of scores]; ``games``, ``turns`` and
    ``rounds``: the count and sums over games; ``end_reason``: games per end reason.
    """
    seats, games = tables["seats"], tables["games"]
    win = seats["win"].to_numpy().astype(np.float64)
    score = seats["score"].to_numpy().astype(np.float64)
    tally: dict[str, Any] = {}
    for by in TALLY_GROUPS:
        column = seats[by].combine_chunks()
        if pa.types.is_dictionary(column.type):
            codes, names = column.indices.to_numpy(), column.dictionary.to_pylist()
        else:
            names, codes = np.unique(column.to_numpy(), return_inverse=True)
            names = names.tolist()
        rows = np.bincount(codes, minlength=len(names))
        wins = np.bincount(codes, weights=win, minlength=len(names))
        scores = np.bincount(codes, weights=score, minlength=len(names))
        tally[by] = {
            str(name): [int(rows[k]), float(wins[k]), int(scores[k])] for k, name in enumerate(names) if rows[k]
        }
    ends = pc.value_counts(games["end_reason"].combine_chunks()).flatten()
    tally["games"] = games.num_rows
    tally["turns"] = int(pc.sum(games["turns"]).as_py() or 0)
    tally["rounds"] = int(pc.sum(games["rounds"]).as_py() or 0)
    tally["end_reason"] = {str(k): int(v) for k, v in zip(*(c.to_pylist() for c in ends), strict=True)}
    return tally
