"""Shared click parameter types of the golem commands."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

import click


class KeyValue(click.ParamType):
    """A ``key=value`` option value."""

    name = "KEY=VALUE"

    def convert(self, value, param, ctx):
        key, sep, val = value.partition("=")
        if not sep or not key.strip():
            self.fail(f"expected KEY=VALUE, got '{value}'", param, ctx)
        return key.strip(), _scalar(val.strip())


class CountValue(click.ParamType):
    """An ``N`` or ``COUNT=N`` option value (a number for every player count, or for one): ``(None or COUNT, N)``."""

    name = "[COUNT=]N"

    def convert(self, value, param, ctx):
        if isinstance(value, tuple):
            return value
        count, sep, number = str(value).rpartition("=")
        try:
            return (int(count) if sep else None), int(number)
        except ValueError:
            self.fail(f"expected N or COUNT=N (whole numbers), got '{value}'", param, ctx)


def distinct_keys(ctx: click.Context, param: click.Parameter, value: tuple) -> tuple:
    """Callback of a repeatable ``KEY=VALUE`` option: a key given twice with two values is refused (one line)."""
    seen: dict[str, object] = {}
    for key, val in value:
        if key in seen and seen[key] != val:
            raise click.BadParameter(f"{key} is given twice, as {seen[key]} and as {val}; give it once", ctx, param)
        seen[key] = val
    return value


def _scalar(text: str):
    """``text`` as an int, a float or a boolean when it reads as one, else as it is."""
    for cast in (int, float):
        with contextlib.suppress(ValueError):
            return cast(text)
    return {"true": True, "false": False}.get(text.lower(), text)


class BotsOption(click.Option):
    """An option whose help ends by naming every game's recommended lineup, read from the games when help is shown."""

    def get_help_record(self, ctx: click.Context) -> tuple[str, str] | None:
        from simulate.registry import available_games, make

        lineups = ", ".join(f"{name} {make(name).info.default_bots}" for name in available_games())
        given = self.help
        self.help = f"{given} [default: the game's recommended lineup, one bot in every seat: {lineups}]."
        try:
            return super().get_help_record(ctx)
        finally:
            self.help = given


REFIT_ONE = (
    "one training the first time this data is seen, as long as golem train GAME (seeds/GAME/apprentice.toml records "
    "its seconds)"
)
"""What ``--refit-apprentice`` costs a command that plays one data folder."""


def refit_option(cost: str = REFIT_ONE):
    """``--refit-apprentice``: play an apprentice fitted on the data played (``simulate.orchestration.refit``);
    ``cost`` says in the help what the refits cost the command."""
    return click.option(
        "--refit-apprentice",
        is_flag=True,
        help="Play an apprentice fitted on the data played (--cards, --rule, the command's own edits): refit it with "
        "golem train's machinery, cached by the data's SHA-256 under the user's cache folder (a second call reuses "
        f"it; data its own apprentice was fitted on needs none). Cost: {cost}. Without it, an apprentice fitted on "
        "other data plays and the output says so.",
    )


def refit_settings(refit: bool):
    """The :class:`simulate.orchestration.refit.RefitSettings` of ``--refit-apprentice`` (None when not given)."""
    from simulate.orchestration.refit import RefitSettings

    return RefitSettings() if refit else None


def refitted_cards(game_name: str, cards: Path | None, rules: dict, workers: int | None, quiet: bool) -> Path | None:
    """The data folder to play under ``--refit-apprentice``: ``cards`` when its apprentice was fitted on it, else
    the cached refit's folder (fitted here when absent, with progress on stderr)."""
    from simulate.orchestration.refit import refit_apprentice

    result = refit_apprentice(
        game_name,
        cards,
        rules,
        workers=workers or os.cpu_count() or 1,
        progress=not quiet,
        say=lambda text: click.echo(text, err=True),
    )
    if result.how == "covered":
        return cards
    return result.folder
