"""Layout and file of the ``cfr`` bot's policy: the average strategy of Monte Carlo CFR on golem-poker's abstraction.

An information set of the abstraction (``abstraction.info_row`` computes it in the kernels) is one row per player
count, numbered by these fields, first to last (the last varies fastest):

=============  ======  ==================================================================================
field          values  meaning (all from what the seat to act can see)
=============  ======  ==================================================================================
``position``   3       0 the amulet (acts first), 1 a middle seat, 2 the last seat of the table
``phase``      2       0 first betting round, 1 second (after the draw)
``hand``       8       the own hand's strength percentile, cut at ``STRENGTH_EDGES``
``golem``      4       golem outlook: 0-2 cards in this deal's discard pile (0: up to 2, 1: 3-5, 2: 6 or
                       more, the golem's raw material), 3 before the draw (the pile is not yet known)
``price``      4       pot odds of the match: 0 nothing to match, else the share of the pot after matching
                       that the match costs, cut at ``PRICE_EDGES`` (1 cheap, 2 middling, 3 dear)
``raises``     4       raises in this betting round: 0 none, 1 one, 2 two (the last half- or pot-sized raise
                       is spent), 3 three or more (a raise war, carried on by minimum raises)
``again``      2       1 the seat has already put chips in this round (a raise came back over its own bet
                       or call), 0 not
``opponents``  3       opponents still in: 0 one, 1 two, 2 three or more
``aggression`` 2       1 an opponent still in has bet or raised this deal, 0 none has
``stake``      3       the seat's chips in the pot (antes, bets, penalties) against what it brought to it,
                       cut at ``STAKE_EDGES`` (0 under a tenth, 1 under 30%, 2 more: deep in a raise war)
=============  ======  ==================================================================================

Actions: ``fold`` (only facing a bet), ``match`` (check or call), ``half_pot`` and ``pot`` (a bet or raise of half
or all of the pot after matching, in whole antes, clipped into the legal range; raises only while the round has
seen fewer than ``MAX_RAISES``) and ``min_raise`` (the rules' smallest raise: the only raise of a war, legal once
the round has seen ``MAX_RAISES`` raises and while it has seen fewer than ``WAR_RAISES``). The file (``FILE``) holds
one line per information set the training reached, named
``n{players}-{position}-{phase}-{hand}-{golem}-{price}-{raises}-{again}-{opponents}-{aggression}-{stake}``, with each
action's probability. ``VERSION`` numbers the layout and meaning: the provenance file records the version a table was
trained on, and a table of another version is refused (``data.load``).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from simulate.datafiles import DataError, read_csv

FILE = "cfr_policy.csv"
PROVENANCE_FILE = "cfr_policy.toml"
ACTIONS = ("fold", "match", "half_pot", "pot", "min_raise")
A_FOLD, A_MATCH, A_HALF, A_POT, A_MIN = 0, 1, 2, 3, 4
NUM_ACTIONS = len(ACTIONS)
POT_SHARES = (0.0, 0.0, 0.5, 1.0)  # size of the half_pot and pot bets or raises as a share of the pot after matching
MAX_RAISES = 2  # the abstraction's half- and pot-sized raises per betting round
WAR_RAISES = 20  # minimum raises carry a raise war on while the round has seen fewer raises than this
STRENGTH_EDGES = (0.35, 0.5, 0.7, 0.85, 0.92, 0.97, 0.99)
PRICE_EDGES = (0.25, 0.4)  # the match's share of the pot after matching: a half-pot bet costs 1/3, a pot bet 1/2
STAKE_EDGES = (0.1, 0.3)  # the seat's chips in the pot as a share of what it brought to it
FIELDS = (
    ("position", 3),
    ("phase", 2),
    ("hand", len(STRENGTH_EDGES) + 1),
    ("golem", 4),
    ("price", len(PRICE_EDGES) + 2),
    ("raises", 4),
    ("again", 2),
    ("opponents", 3),
    ("aggression", 2),
    ("stake", len(STAKE_EDGES) + 1),
)
VERSION = 4
"""The abstraction's version (1: the bet faced in 4 classes, without raises counted, chips committed or pot odds;
2: raises counted to two, no minimum raise past them and no stake; 3: this layout, trained without the rival who
bets and raises the minimum from the round's first bet, every action tried however deep a raise war)."""
ROWS = int(np.prod([size for _, size in FIELDS]))
MIN_PLAYERS, MAX_PLAYERS = 3, 6
PLAYER_COUNTS = tuple(range(MIN_PLAYERS, MAX_PLAYERS + 1))
MISSING = -1.0  # a row the training never reached: the bot checks, or folds to a bet


def row_name(num_players: int, row: int) -> str:
    """The file's name of information set ``row`` of the ``num_players`` table."""
    parts = []
    for _, size in reversed(FIELDS):
        parts.append(row % size)
        row //= size
    return f"n{num_players}-" + "-".join(str(v) for v in reversed(parts))


def parse_row_name(name: str) -> tuple[int, int]:
    """(players, row) of a file's information-set name; ``ValueError`` if it is not one."""
    head, *parts = name.split("-")
    if not head.startswith("n") or len(parts) != len(FIELDS):
        raise ValueError(f"'{name}' is not n<players>-" + "-".join(f"<{f}>" for f, _ in FIELDS))
    n = int(head[1:])
    if n not in PLAYER_COUNTS:
        raise ValueError(f"'{name}': players must be within {MIN_PLAYERS}..{MAX_PLAYERS}")
    row = 0
    for text, (field, size) in zip(parts, FIELDS, strict=True):
        v = int(text)
        if not 0 <= v < size:
            raise ValueError(f"'{name}': {field} must be within 0..{size - 1}")
        row = row * size + v
    return n, row


def empty_policy() -> np.ndarray:
    """float64 (len(PLAYER_COUNTS), ROWS, NUM_ACTIONS), every row ``MISSING``."""
    return np.full((len(PLAYER_COUNTS), ROWS, NUM_ACTIONS), MISSING)


def read_policy(path: Path) -> np.ndarray:
    """The policy table of file ``path`` (rows it does not list are ``MISSING``); ``DataError`` naming the line."""
    out = empty_policy()
    for line, rec in read_csv(path, ["infoset", *ACTIONS]):
        try:
            n, row = parse_row_name(rec["infoset"].strip())
            probs = np.array([float(rec[a]) for a in ACTIONS])
        except ValueError as e:
            raise DataError(f"{path}: line {line}: {e}") from None
        if np.any(probs < 0) or not np.isclose(probs.sum(), 1.0, atol=1e-3):
            raise DataError(f"{path}: line {line}: the probabilities must be at least 0 and sum to 1")
        if out[n - MIN_PLAYERS, row, 0] != MISSING:
            raise DataError(f"{path}: line {line}: information set {rec['infoset'].strip()} listed twice")
        out[n - MIN_PLAYERS, row] = probs
    return out


def policy_text(policy: np.ndarray) -> str:
    """CSV text of a policy table (rows that are ``MISSING`` left out), probabilities to 4 decimals."""
    lines = [",".join(("infoset", *ACTIONS))]
    for k, n in enumerate(PLAYER_COUNTS):
        for row in range(ROWS):
            probs = policy[k, row]
            if probs[0] == MISSING:
                continue
            lines.append(",".join((row_name(n, row), *(f"{p:.4f}" for p in probs))))
    return "\n".join(lines) + "\n"
