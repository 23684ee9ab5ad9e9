"""How the report writes numbers: percentages, intervals, p-values, counts."""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from analysis.stats._util import format_pvalue, interval_digits
from analysis.stats.convergence import MAX_PLANNABLE_GAMES


def _players(n: int) -> str:
    """'1 player', '3 players'."""
    return f"{int(n)} player{'' if int(n) == 1 else 's'}"


def _ok(x: Any) -> bool:
    try:
        return bool(np.isfinite(float(x)))
    except (TypeError, ValueError):
        return False


def _pct(x: float, digits: int = 1) -> str:
    return f"{100 * x:.{digits}f}%" if _ok(x) else "n/a"


def _pct_ci(low: float, high: float, digits: int = 1) -> str:
    """'47.8–48.4%': more decimals where the two ends would print alike."""
    if not (_ok(low) and _ok(high)):
        return "n/a"
    d = interval_digits(100 * low, 100 * high, digits)
    return f"{100 * low:.{d}f}–{100 * high:.{d}f}%"


def _pp(x: float, digits: int = 1) -> str:
    return f"{100 * x:+.{digits}f}" if _ok(x) else "n/a"


def _num(x: float, digits: int = 1, sign: bool = False) -> str:
    if not _ok(x):
        return "n/a"
    return f"{x:+.{digits}f}" if sign else f"{x:.{digits}f}"


def _ci(low: float, high: float, digits: int = 1, sign: bool = False) -> str:
    """'-0.31 to -0.27': ``digits`` decimals, more where the two ends would print alike."""
    if not (_ok(low) and _ok(high)):
        return "n/a"
    d = interval_digits(low, high, digits)
    return f"{_num(low, d, sign)} to {_num(high, d, sign)}"


_NO_VARIANCE = 1e-9  # within-setup variance below this is rounding: the replays were identical


def _games_text(x: float) -> str:
    """A count of games for a table cell; beyond ``MAX_PLANNABLE_GAMES`` "more than 10 million"."""
    return f"{int(x):,}" if _ok(x) and x <= MAX_PLANNABLE_GAMES else f"more than {MAX_PLANNABLE_GAMES / 1e6:g} million"


def _int(x: float) -> str:
    return f"{int(x):,}" if _ok(x) else "n/a"


def _p(p: float) -> str:
    return format_pvalue(p).replace("p = ", "").replace("p < ", "< ")


def _level(alpha: float) -> str:
    return f"{100 * (1 - alpha):g}%"


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "x"
