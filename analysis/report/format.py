"""How the report writes numbers: percentages, intervals, p-values, counts."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import numpy as np

from analysis.stats._util import format_pvalue, interval_digits
from analysis.stats.convergence import MAX_PLANNABLE_GAMES


def people_words(text: str, names: Mapping[str, str]) -> str:
    """``text`` with every bot spec of ``names`` (``name[:key=value...]``) that stands as a word replaced by what a
    designer calls that player (the longest spec first, so ``search:iterations=50`` is not read as ``search``). A
    spec followed by " style" is the name of a strategy style ("the engine style"), not a player, and stays; one
    after "is", "are" or "not" is an adjective (Golem's bot ``balanced`` in "the seats are not balanced") and stays;
    one followed by a colon is renamed unless a parameter follows (``equity:`` ends a clause, ``equity:k=2`` is a
    spec); one that is already part of a player's name stays, so naming twice names once.

    Examples
    --------
    >>> people_words("under search:iterations=50 and search", {"search": "search (100 iterations)",
    ...              "search:iterations=50": "search (50 iterations)"})
    'under search (50 iterations) and search (100 iterations)'
    >>> people_words("4 players: equity: the strongest", {"equity": "equity player"})
    '4 players: equity player: the strongest'
    >>> people_words("under greedy heuristic and greedy", {"greedy": "greedy heuristic"})
    'under greedy heuristic and greedy heuristic'
    """
    if not names:
        return text
    specs = sorted(names, key=len, reverse=True)
    adjective = r"(?<!\bis )(?<!\bare )(?<!\bnot )"
    pattern = re.compile("|".join(rf"(?<![\w:=.-]){adjective}{re.escape(s)}(?![\w=-]|:\w+=| style\b)" for s in specs))

    def named(m: re.Match[str]) -> str:
        spec = m.group(0)
        for name in names.values():
            at = name.find(spec)
            while at >= 0:
                if text.startswith(name, m.start() - at):
                    return spec
                at = name.find(spec, at + 1)
        return names[spec]

    return pattern.sub(named, text)


def fmt_players(n: int) -> str:
    """'1 player', '3 players'."""
    return f"{int(n)} player{'' if int(n) == 1 else 's'}"


def is_number(x: Any) -> bool:
    try:
        return bool(np.isfinite(float(x)))
    except (TypeError, ValueError):
        return False


def fmt_pct(x: float, digits: int = 1) -> str:
    return f"{100 * x:.{digits}f}%" if is_number(x) else "n/a"


def fmt_pct_ci(low: float, high: float, digits: int = 1) -> str:
    """'47.8–48.4%': more decimals where the two ends would print alike."""
    if not (is_number(low) and is_number(high)):
        return "n/a"
    d = interval_digits(100 * low, 100 * high, digits)
    return f"{100 * low:.{d}f}–{100 * high:.{d}f}%"


def fmt_pp(x: float, digits: int = 1) -> str:
    return f"{100 * x:+.{digits}f}" if is_number(x) else "n/a"


def fmt_num(x: float, digits: int = 1, sign: bool = False) -> str:
    if not is_number(x):
        return "n/a"
    return f"{x:+.{digits}f}" if sign else f"{x:.{digits}f}"


def fmt_ci(low: float, high: float, digits: int = 1, sign: bool = False) -> str:
    """'-0.31 to -0.27': ``digits`` decimals, more where the two ends would print alike."""
    if not (is_number(low) and is_number(high)):
        return "n/a"
    d = interval_digits(low, high, digits)
    return f"{fmt_num(low, d, sign)} to {fmt_num(high, d, sign)}"


NO_VARIANCE = 1e-9  # within-setup variance below this is rounding: the replays were identical


def fmt_games(x: float) -> str:
    """A count of games for a table cell; beyond ``MAX_PLANNABLE_GAMES`` "more than 10 million"."""
    return (
        f"{int(x):,}"
        if is_number(x) and x <= MAX_PLANNABLE_GAMES
        else f"more than {MAX_PLANNABLE_GAMES / 1e6:g} million"
    )


def fmt_int(x: float) -> str:
    return f"{int(x):,}" if is_number(x) else "n/a"


def fmt_p(p: float) -> str:
    return format_pvalue(p).replace("p = ", "").replace("p < ", "< ")


def fmt_level(alpha: float) -> str:
    return f"{100 * (1 - alpha):g}%"


def anchor_slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "x"
