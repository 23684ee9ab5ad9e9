"""Helpful errors about names: the one wording of "unknown X", shared by every layer."""

from __future__ import annotations

import difflib


def unknown_message(kind: str, name: str, known: list[str]) -> str:
    """'unknown <kind> ...' naming close matches and the valid names."""
    close = difflib.get_close_matches(name, known, n=3)
    hint = f" (did you mean {', '.join(close)}?)" if close else ""
    return f"unknown {kind} '{name}'{hint}; choose from: {', '.join(known)}"
