"""Counter-based seeding and a small per-game random generator usable inside numba kernels.

Every game is a pure function of (master seed, game index): its seeds are hashes of those
numbers, never draws from a shared generator, so results do not depend on how games are split
across chunks, workers or machines. Setup randomness and play randomness are separate streams.

The generator is SplitMix64 (Steele, Lea and Flood 2014, the seeder of Java's SplittableRandom
and of xoshiro): one uint64 of state per game, good statistical quality, and trivially cheap in a
numba loop. State lives in a caller-owned ``uint64`` array so a kernel allocates nothing per move.
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


def game_seeds(master_seed: int, game_index: np.ndarray, setup_index: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Setup and play seeds (``uint64`` arrays) for the given games.

    ``setup_index`` names each game's setup: equal indices replay the same setup.
    """
    game_index = np.asarray(game_index, dtype=np.uint64)
    setup_index = np.asarray(setup_index, dtype=np.uint64)
    return _seeds(np.uint64(master_seed), game_index, setup_index)


@njit(cache=True)
def _seeds(master, game_index, setup_index):
    n = game_index.shape[0]
    setup = np.empty(n, dtype=np.uint64)
    play = np.empty(n, dtype=np.uint64)
    for k in range(n):
        setup[k] = derive_seed(master, np.uint64(STREAM_SETUP), setup_index[k])
        play[k] = derive_seed(master, np.uint64(STREAM_PLAY), game_index[k])
    return setup, play
