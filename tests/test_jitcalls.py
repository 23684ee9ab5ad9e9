"""A lab function called from compiled code is compiled once per array layout, not once per integer width."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit, types

from simulate import jitcalls, rng


@njit
def _add(a, b):
    return a + b


@njit
def _widths(x):
    return _add(np.int16(x), np.int32(2)) + _add(x, 1) + _add(np.int8(x), x)


@njit
def _pick(t, i):
    return t[i]  # a tuple of mixed types is indexed by a constant only


@njit
def _constant_index():
    return _pick((1, 2.5), 1)


@pytest.fixture
def here(monkeypatch: pytest.MonkeyPatch) -> None:
    """Treat this module's functions as the lab's."""
    monkeypatch.setattr(jitcalls, "PACKAGES", (_add.py_func.__module__,))


def test_calls_with_any_signed_width_or_constant_share_one_compilation(here: None) -> None:
    assert _widths(5) == 7 + 6 + 10
    assert _add.signatures == [(types.int64, types.int64)]  # numba alone compiles four


def test_a_function_that_needs_the_constant_is_compiled_for_it(here: None) -> None:
    assert _constant_index() == 2.5
    assert _pick.signatures[0][1] == types.IntegerLiteral(1)


def test_the_lab_functions_are_compiled_so() -> None:
    @njit
    def draws(state):
        return rng.randint(state, np.int16(0), np.int32(6)) + rng.randint(state, 0, 6)

    draws(np.ones(1, dtype=np.uint64))
    assert all(sig[1:] == (types.int64, types.int64) for sig in rng.randint.signatures)


@pytest.mark.parametrize(
    ("given", "compiled"),
    [
        (types.int16, types.int64),
        (types.int32, types.int64),
        (types.IntegerLiteral(0), types.int64),
        (types.BooleanLiteral(True), types.boolean),
        (types.uint8, types.uint8),  # widened, numba's arithmetic would change (uint64 with int64: float)
        (types.float32, types.float32),
        (types.int16[:], types.int16[:]),
    ],
)
def test_canonical_types(given: types.Type, compiled: types.Type) -> None:
    assert jitcalls.canonical(given) == compiled
