"""Counter-based seeding and a small per-game random generator usable inside numba kernels.

Every game is a pure function of (master seed, game index): its seeds are hashes of those
numbers, never draws from a shared generator, so results do not depend on how games are split
across chunks, workers or machines. Setup randomness and play randomness are separate streams.

The generator is SplitMix64 (Steele, Lea and Flood 2014, the seeder of Java's SplittableRandom
and of xoshiro): one uint64 of state per game, good statistical quality, and trivially cheap in a
numba loop. State lives in a caller-owned ``uint64`` array so a kernel allocates nothing per move.

A setup seed names two things a game draws at setup from two streams: the public opening (what every
player sees before the first move: a display, starting tiles, the turn order) from
:func:`opening_seed`, a hash of the seed's high 32 bits, and the hidden order (the rest of the decks, cards
dealt face down, later chance) from :func:`order_seed`, a hash of the whole seed. Setup seeds that share
their high 32 bits share the opening and differ in the hidden order: :func:`game_seeds` builds them so
for a nested design (openings > deck orders > play seeds).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simulate.jitcache import use_cache

use_cache(__file__)  # cached per user, not beside this file (simulate.jitcache)

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)

STREAM_SETUP = 1
STREAM_PLAY = 2
STREAM_OPENING = 3

_HIGH = np.uint64(0xFFFFFFFF00000000)
_OPENING_SALT = np.uint64(0x0FE41116)
_ORDER_SALT = np.uint64(0x0DE6C0DE)


@njit(cache=True)
def mix64(x: np.uint64) -> np.uint64:
    """SplitMix64 finaliser: a bijective hash of one 64-bit word."""
    z = np.uint64(x)
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def derive_seed(master: np.uint64, stream: np.uint64, index: np.uint64) -> np.uint64:
    """Seed of item ``index`` of ``stream`` under ``master``: a hash, never a draw."""
    h = mix64(np.uint64(master) + _GOLDEN)
    h = mix64(h ^ (np.uint64(stream) * _GOLDEN))
    return mix64(h + np.uint64(index) * _MIX1)


@njit(cache=True)
def next_u64(state: np.ndarray, i: int) -> np.uint64:
    """Advance generator ``state[i]`` and return its next 64-bit output."""
    s = state[i] + _GOLDEN
    state[i] = s
    return mix64(s)


@njit(cache=True)
def randint(state: np.ndarray, i: int, n: int) -> int:
    """Uniform integer in ``[0, n)`` from generator ``state[i]`` (multiply-shift, bias < n/2^32)."""
    hi = next_u64(state, i) >> np.uint64(32)
    return np.int64((hi * np.uint64(n)) >> np.uint64(32))


@njit(cache=True)
def uniform(state: np.ndarray, i: int) -> float:
    """Uniform float in ``[0, 1)`` with 53 random bits."""
    return float(next_u64(state, i) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True)
def shuffle(state: np.ndarray, i: int, a: np.ndarray, n: int) -> None:
    """Fisher-Yates shuffle of ``a[:n]`` in place, drawing from generator ``state[i]``."""
    for k in range(n - 1, 0, -1):
        j = randint(state, i, k + 1)
        t = a[k]
        a[k] = a[j]
        a[j] = t


@njit(cache=True)
def draw_front(state: np.ndarray, i: int, a: np.ndarray, n: int, k: int) -> None:
    """Move a uniform ordered sample of ``k`` of ``a[:n]`` to ``a[:k]`` (the first ``k`` steps of a forward
    Fisher-Yates shuffle), drawing from generator ``state[i]``; ``a[k:n]`` keeps the rest in some order."""
    for j in range(min(k, n)):
        m = j + randint(state, i, n - j)
        t = a[j]
        a[j] = a[m]
        a[m] = t


@njit(cache=True)
def shuffle_range(state: np.ndarray, i: int, a: np.ndarray, lo: int, hi: int) -> None:
    """Fisher-Yates shuffle of ``a[lo:hi]`` in place, drawing from generator ``state[i]``.

    After :func:`draw_front` of ``k`` cards from one stream, ``shuffle_range(.., k, n)`` from another gives a
    uniform permutation of ``a[:n]`` whose first ``k`` cards depend on the first stream only."""
    for k in range(hi - 1, lo, -1):
        j = lo + randint(state, i, k - lo + 1)
        t = a[k]
        a[k] = a[j]
        a[j] = t


@njit(cache=True)
def opening_seed(setup_seed: np.uint64) -> np.uint64:
    """Seed of a setup's public opening: a hash of the setup seed's high 32 bits only."""
    return mix64((np.uint64(setup_seed) & _HIGH) ^ _OPENING_SALT)


@njit(cache=True)
def order_seed(setup_seed: np.uint64) -> np.uint64:
    """Seed of a setup's hidden order (deck order, face-down cards, later chance): a hash of the whole seed."""
    return mix64(np.uint64(setup_seed) ^ _ORDER_SALT)


def game_seeds(
    master_seed: int, game_index: np.ndarray, setup_index: np.ndarray, orders_per_opening: int = 1
) -> tuple[np.ndarray, np.ndarray]:
    """Setup and play seeds (``uint64`` arrays) for the given games.

    ``setup_index`` names each game's setup: equal indices replay the same setup. With ``orders_per_opening``
    k above 1, setups ``k j .. k j + k - 1`` share opening ``j``: their setup seeds take the high 32 bits from
    the opening's own hash (stream ``STREAM_OPENING``) and the low 32 bits from the setup's, so they show the same
    public opening over different hidden orders. With k = 1 a setup seed is the setup's hash, as it always was.
    """
    if orders_per_opening < 1:
        raise ValueError(f"orders_per_opening must be at least 1, not {orders_per_opening}")
    game_index = np.asarray(game_index, dtype=np.uint64)
    setup_index = np.asarray(setup_index, dtype=np.uint64)
    return _seeds(np.uint64(master_seed), game_index, setup_index, np.uint64(orders_per_opening))


@njit(cache=True)
def _seeds(master, game_index, setup_index, orders_per_opening):
    n = game_index.shape[0]
    setup = np.empty(n, dtype=np.uint64)
    play = np.empty(n, dtype=np.uint64)
    low = ~_HIGH
    for k in range(n):
        setup[k] = derive_seed(master, np.uint64(STREAM_SETUP), setup_index[k])
        if orders_per_opening > 1:
            opening = derive_seed(master, np.uint64(STREAM_OPENING), setup_index[k] // orders_per_opening)
            setup[k] = (opening & _HIGH) | (setup[k] & low)
        play[k] = derive_seed(master, np.uint64(STREAM_PLAY), game_index[k])
    return setup, play
