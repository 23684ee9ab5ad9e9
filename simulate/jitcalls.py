"""How a lab numba function called from another is compiled: once per array layout, not once per integer width.

Numba compiles a function called from compiled code for the exact types of the call's arguments: a game
state field of ``int16``, a counter of ``int32``, an ``int64`` sum and each integer constant (``Literal[int](0)``,
``Literal[int](1)``) each give the callee a compilation of its own, and so do all the functions it calls: most of
a game engine's functions were compiled several times over, and that was about half of its compile time.

:func:`install` makes numba compile a lab function (one of :data:`PACKAGES`) called from compiled code for its
arguments with every signed integer widened to ``int64`` and every constant made a plain value; the caller casts
at the call. Numba's integer arithmetic gives ``int64`` for signed operands whatever their width, so the
callee computes the same values. A function whose typing needs the narrower or constant type (a tuple indexed
by a constant, a branch only typed for one value) fails to type so and is compiled for the call's own types, as
numba would. Calls from Python are untouched.
"""

from __future__ import annotations

import contextlib

from numba.core import errors, types
from numba.core.dispatcher import Dispatcher

__all__ = ["PACKAGES", "canonical", "install"]

PACKAGES = ("simulate.", "analysis.")
"""Module prefixes of the functions compiled for canonical argument types."""


def canonical(ty: types.Type) -> types.Type:
    """The type a lab function is compiled for when a compiled caller passes ``ty``: signed integers as ``int64``,
    constants as plain values; any other type as it is."""
    if isinstance(ty, (types.IntegerLiteral, types.BooleanLiteral)):
        ty = types.unliteral(ty)
    if isinstance(ty, types.Integer) and ty.signed:
        return types.int64
    return ty


_numba_call_template = Dispatcher.get_call_template


def _call_template(self: Dispatcher, args: tuple, kws: dict) -> tuple:
    if getattr(self.py_func, "__module__", "").startswith(PACKAGES):
        wide = tuple(canonical(a) for a in args)
        wide_kws = {k: canonical(v) for k, v in kws.items()}
        if wide != tuple(args) or wide_kws != kws:
            with contextlib.suppress(errors.TypingError):  # typed only for the call's own types: numba's way, below
                return _numba_call_template(self, wide, wide_kws)
    return _numba_call_template(self, args, kws)


def install() -> None:
    """Compile lab functions called from compiled code for canonical argument types (idempotent)."""
    Dispatcher.get_call_template = _call_template
