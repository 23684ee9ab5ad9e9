"""Sequential stopping: play games in rounds until intervals are narrow enough or a test decides.

Two rules, each with its error rate kept under repeated looks:

* ``--precision``: stop at the first round where every interval of interest has a half-width at
  most the target (Chow and Robbins 1965). The intervals are the ordinary t intervals; their
  coverage at the stopping time tends to the nominal level as the target narrows, and is checked
  on synthetic data in the tests. A minimum of two rounds guards against a lucky early variance.
* ``--test 'seat1 > 1/n + 0.01'``: an anytime-valid confidence sequence for the quantity's mean
  (the asymptotic confidence sequence of Waudby-Smith et al. 2021, Robbins' normal mixture
  boundary with the running variance). The test decides "true" when the whole sequence lies above
  the threshold, "false" when it lies below, and stays undecided otherwise; the chance that any
  decision made at any round is wrong is at most ``alpha``, however often one looks.

References
----------
Chow, Y. S. and Robbins, H. (1965). On the asymptotic theory of fixed-width sequential confidence
intervals for the mean. *Annals of Mathematical Statistics* 36.
Waudby-Smith, I., Arbour, D., Sinha, R., Kennedy, E. H. and Ramdas, A. (2021). Time-uniform central
limit theory and asymptotic confidence sequences. arXiv:2103.06476 (Theorem 2.2).
Robbins, H. (1970). Statistical methods related to the law of the iterated logarithm. *Annals of
Mathematical Statistics* 41.
"""

from __future__ import annotations

import ast
import operator
from typing import NamedTuple

import numpy as np
import pandas as pd

from analysis.stats._util import check_alpha
from simulate.names import unknown_message

__all__ = [
    "SequentialTest",
    "StopRuleError",
    "confseq_halfwidth",
    "decide",
    "mixture_rho2",
    "parse_test",
    "precision_reached",
    "widest_halfwidth",
]

_OPS = {ast.Gt: ">", ast.GtE: ">=", ast.Lt: "<", ast.LtE: "<="}
_ARITH = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv}


class StopRuleError(ValueError):
    """A ``--test`` expression that cannot be used; the message is one line."""


class SequentialTest(NamedTuple):
    """A parsed ``--test``: is the mean of ``quantity`` ``op`` ``threshold``?"""

    quantity: str
    op: str
    threshold: float
    text: str


def _constant(node: ast.AST, num_players: int, text: str) -> float:
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float) and not isinstance(node.value, bool):
        return float(node.value)
    if isinstance(node, ast.Name) and node.id == "n":
        return float(num_players)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        value = _constant(node.operand, num_players, text)
        return -value if isinstance(node.op, ast.USub) else value
    if isinstance(node, ast.BinOp) and type(node.op) in _ARITH:
        left, right = _constant(node.left, num_players, text), _constant(node.right, num_players, text)
        if isinstance(node.op, ast.Div) and right == 0:
            raise StopRuleError(f"--test '{text}': division by zero")
        return _ARITH[type(node.op)](left, right)
    raise StopRuleError(f"--test '{text}': the threshold may use numbers, n (players) and + - * / only")


def parse_test(text: str, quantities: list[str], num_players: int) -> SequentialTest:
    """Parse ``QUANTITY OP THRESHOLD`` (``seat1 > 1/n + 0.01``); OP is one of > >= < <=.

    ``quantities`` are the names the test may use (the columns of
    :func:`analysis.stats.paired.game_quantities`); the threshold is arithmetic on numbers and ``n``.
    """
    try:
        tree = ast.parse(text.strip(), mode="eval").body
    except SyntaxError:
        raise StopRuleError(f"--test '{text}': not an expression like 'seat1 > 1/n + 0.01'") from None
    if not (isinstance(tree, ast.Compare) and len(tree.ops) == 1 and type(tree.ops[0]) in _OPS):
        raise StopRuleError(f"--test '{text}': expected one comparison with >, >=, < or <=")
    left, right, op = tree.left, tree.comparators[0], _OPS[type(tree.ops[0])]
    if not (isinstance(left, ast.Name) and left.id != "n"):
        raise StopRuleError(f"--test '{text}': the left side must name a quantity ({', '.join(quantities)})")
    if left.id not in quantities:
        raise StopRuleError(f"--test '{text}': " + unknown_message("quantity", left.id, quantities))
    threshold = _constant(right, num_players, text)
    if not np.isfinite(threshold):
        raise StopRuleError(f"--test '{text}': the threshold is {threshold}, which no estimate can be compared with")
    return SequentialTest(left.id, op, threshold, text.strip())


def mixture_rho2(alpha: float, num_obs: float, variance: float) -> float:
    """Mixture parameter rho^2 making the confidence sequence narrowest after ``num_obs`` observations
    of variance ``variance`` (Howard et al. 2021, eq. 3.10 approximation)."""
    check_alpha(alpha)
    return (-2 * np.log(alpha) + np.log(-2 * np.log(alpha) + 1)) / (num_obs * variance)


def confseq_halfwidth(num_obs: np.ndarray, variance: np.ndarray, alpha: float, rho2: float) -> np.ndarray:
    """Half-width of the two-sided asymptotic confidence sequence for a mean after ``num_obs`` observations.

    ``sqrt(2 (t s2 r + 1) / (t^2 r) * log(sqrt(t s2 r + 1) / alpha))`` with t observations,
    running variance s2 and mixture parameter r = ``rho2`` (fixed in advance, e.g. by
    :func:`mixture_rho2`); it holds at every t at once with probability about ``1 - alpha``.
    """
    check_alpha(alpha)
    t = np.asarray(num_obs, dtype=float)
    v = t * np.asarray(variance, dtype=float) * rho2 + 1.0
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.sqrt(2 * v / (t**2 * rho2) * np.log(np.sqrt(v) / alpha))


def decide(test: SequentialTest, mean: float, halfwidth: float) -> str | None:
    """``"true"``, ``"false"`` or None (undecided) for an estimate and its confidence-sequence half-width."""
    low, high = mean - halfwidth, mean + halfwidth
    if not (np.isfinite(low) and np.isfinite(high)):
        return None
    above, below = low > test.threshold, high < test.threshold
    if test.op in (">", ">="):
        return "true" if above else ("false" if below else None)
    return "true" if below else ("false" if above else None)


def widest_halfwidth(effects: pd.DataFrame) -> float:
    """Largest half-width of the rate effects' intervals (rows of :func:`analysis.stats.paired.paired_effects`)."""
    rates = effects[effects["unit"] == "rate"]
    return float(((rates["ci_high"] - rates["ci_low"]) / 2).max()) if len(rates) else float("nan")


def precision_reached(effects: pd.DataFrame, precision_pp: float, round_index: int) -> bool:
    """The Chow-Robbins rule: from the second round (``round_index >= 1``), every rate interval is at most
    ``precision_pp`` percentage points either side of its estimate."""
    return round_index >= 1 and widest_halfwidth(effects) <= precision_pp / 100
