"""The one registry of games: ``make(name)`` with lazy imports and helpful errors."""

from __future__ import annotations

import importlib

from simulate.game import Game
from simulate.names import unknown_message

# name -> (module holding GAME, one-line description); modules are imported on first use.
_GAMES: dict[str, tuple[str, str]] = {
    "century": ("simulate.games.century.game", "Century: Golem Edition (Plan B Games 2017), 2-5 players"),
    "golem": (
        "simulate.games.golem.game",
        "Golem (Cranio Creations 2021), 1-4 players (solo against a stand-in Automa); some printed values ESTIMATES",
    ),
    "golem-poker": ("simulate.games.golem_poker.game", "Golem (card game): five-card draw against a golem hand, 3-6"),
    "golems": ("simulate.games.golems.game", "Golems (ThunderGryph 2020), 2 players or solo; deck is a stand-in"),
}
_SHIPPED = frozenset(_GAMES)


def register_game(name: str, module: str, description: str) -> None:
    """Add a game: ``module`` (importable, imported on first use) holds its ``GAME``; the four shipped games are the
    lines of ``_GAMES`` above, a game of one's own (``docs/adding-a-game.md``) may be added at run time."""
    if name in _GAMES and _GAMES[name][0] != module:
        raise ValueError(f"game {name!r} is already registered to {_GAMES[name][0]}")
    _GAMES[name] = (module, description)


def unregister_game(name: str) -> None:
    """Remove a game added by :func:`register_game` (the shipped games stay)."""
    if name in _SHIPPED:
        raise ValueError(f"game {name!r} ships with the lab and cannot be removed")
    _GAMES.pop(name, None)


class UnknownName(ValueError):
    """A name that is not registered; the message lists the valid ones."""


def available_games() -> dict[str, str]:
    """Registered game names with their one-line descriptions."""
    return {name: desc for name, (_, desc) in _GAMES.items()}


def make(name: str) -> Game:
    """The engine of game ``name``."""
    if name not in _GAMES:
        raise UnknownName(unknown_message("game", name, list(_GAMES)))
    return importlib.import_module(_GAMES[name][0]).GAME
