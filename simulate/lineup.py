"""Bot lineups: parsing ``name:key=value`` specs and assigning bots to seats."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from simulate.game import Game
from simulate.names import unknown_message


class LineupError(ValueError):
    """A bot spec or lineup that cannot be used; the message is one line."""


@dataclass(frozen=True)
class BotEntry:
    """One bot of a lineup: its label (as written in logs), name and full parameter set."""

    label: str
    bot: str
    params: dict[str, float]

    def to_json(self) -> dict:
        return {"label": self.label, "bot": self.bot, "params": dict(self.params)}


def read_bot_file(path: str) -> str:
    """The bot spec stored in a file (as ``golem tune`` writes it): its first line that is not a comment."""
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except OSError as e:
        raise LineupError(f"bot file {path}: {e.strerror or e}") from None
    specs = [line.strip() for line in lines if line.strip() and not line.strip().startswith("#")]
    if not specs:
        raise LineupError(f"bot file {path}: no bot spec in it")
    return specs[0]


def parse_bot(game: Game, spec: str) -> BotEntry:
    """Parse ``name``, ``name:key=value[:key=value...]`` or ``@FILE`` (a spec in a file) against the game's bots.

    A parameter set by name (``BotSpec.choices``, e.g. ``apprentice:style=engine``) takes one of its names, which the
    label keeps, and plays as the name's index."""
    if spec.strip().startswith("@"):
        spec = read_bot_file(spec.strip()[1:])
    name, *settings = [part.strip() for part in spec.strip().split(":")]
    if name not in game.info.bots:
        raise LineupError(unknown_message(f"{game.info.name} bot", name, list(game.info.bots)))
    bot = game.info.bots[name]
    params = {k: float(default) for k, (default, _) in bot.params.items()}
    given = []
    for setting in settings:
        key, sep, value = setting.partition("=")
        key = key.strip()
        if not sep:
            raise LineupError(f"bot '{spec}': expected key=value after ':', found '{setting}'")
        if key in {g.partition("=")[0] for g in given}:
            raise LineupError(f"bot '{spec}': parameter {key} is given twice")
        if key not in params:
            known = list(params) or ["(this bot has no parameters)"]
            raise LineupError(f"bot '{spec}': " + unknown_message(f"parameter of {name}", key, known))
        if key in bot.choices:
            if value.strip() not in bot.choices[key]:
                raise LineupError(
                    f"bot '{spec}': " + unknown_message(f"{key} of {name}", value.strip(), list(bot.choices[key]))
                )
            params[key] = float(bot.choices[key].index(value.strip()))
            given.append(f"{key}={value.strip()}")
            continue
        try:
            params[key] = float(value)
        except ValueError:
            raise LineupError(f"bot '{spec}': parameter {key} needs a number, found '{value}'") from None
        if not np.isfinite(params[key]):
            raise LineupError(f"bot '{spec}': parameter {key} needs a finite number, found '{value.strip()}'")
        if key in bot.whole and not params[key].is_integer():
            raise LineupError(f"bot '{spec}': parameter {key} takes a whole number, not {value.strip()}")
        low, high = bot.limits.get(key, (-np.inf, np.inf))
        if not low <= params[key] <= high:
            raise LineupError(f"bot '{spec}': parameter {key} must be within {low:g}..{high:g}, not {value.strip()}")
        given.append(f"{key}={value.strip()}")
    label = ":".join([name, *given])
    return BotEntry(label, name, params)


def parse_lineup(game: Game, specs: list[str], num_players: int) -> list[BotEntry]:
    """One bot per seat: a single bot fills every seat (a mirror match)."""
    if not game.info.min_players <= num_players <= game.info.max_players:
        raise LineupError(
            f"{game.info.name} takes {game.info.min_players}-{game.info.max_players} players, not {num_players}"
        )
    entries = [parse_bot(game, s) for s in specs if s.strip()]
    if not entries:
        raise LineupError("no bots given")
    if len(entries) == 1:
        entries = entries * num_players
    if len(entries) != num_players:
        raise LineupError(f"{len(entries)} bots for {num_players} players: give one bot, or one per seat")
    return entries


def lineup_arrays(game: Game, lineup: list[BotEntry]) -> tuple[np.ndarray, np.ndarray]:
    """Kernel ids (L,) and parameter vectors (L, max params) of a lineup, in the bots' parameter order."""
    ids = np.array([game.info.bots[e.bot].bot_id for e in lineup], dtype=np.int64)
    params = np.zeros((len(lineup), game.info.max_bot_params))
    for k, e in enumerate(lineup):
        for j, key in enumerate(game.info.bots[e.bot].params):
            params[k, j] = e.params[key]
    return ids, params


def seat_assignment(num_players: int, rotation: np.ndarray) -> np.ndarray:
    """(G, n) lineup index of each seat: seat s plays entry ``(s + rotation) mod n``."""
    seats = np.arange(num_players)[None, :]
    return (seats + np.asarray(rotation)[:, None]) % num_players
