"""Re-simulate one game of a run from its manifest and seeds."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from simulate.game import Game
from simulate.integrity import check_header, check_inputs
from simulate.lineup import lineup_arrays
from simulate.runformat import RunFormatError, read_manifest
from simulate.runner import RunSpec, derived_facts, load_run_data, plan_games
from simulate.store import RunStore

STATE_SCHEMA = "golem-lab.replay-state/1"
"""The version of the ``state`` field of replay events (docs/replay.md); bumped when a field changes meaning."""


def _replay_args(run_dir: str | Path, game_index: int) -> tuple[Game, dict[str, Any], tuple]:
    """The game, what names game ``game_index`` (run id, game, setup id and seeds) and the arguments of
    ``Game.replay`` and ``Game.replay_view`` before their flags."""
    store = RunStore(run_dir)
    manifest = read_manifest(store)
    check_header(manifest, store.name("manifest.json"))
    check_inputs(store, manifest, derive=derived_facts)  # the data copy, rules and bots it was played with
    if not 0 <= game_index < manifest["num_games"]:
        raise ValueError(f"game {game_index} is not in this run (games 0..{manifest['num_games'] - 1:,})")
    game, data = load_run_data(store, manifest)
    try:
        spec = RunSpec.from_json(manifest)
        ids, params = lineup_arrays(game, spec.lineup)
    except (KeyError, TypeError, ValueError) as e:
        raise RunFormatError(
            f"{store.name('manifest.json')}: its lineup or rules do not fit the game ({e!r})"
        ) from None
    plan = plan_games(spec, game_index, game_index + 1)
    labels = [spec.lineup[k].label for k in plan.seat_lineup[0]]
    names = {
        "run_id": manifest["run_id"],
        "game": game_index,
        "setup_id": int(plan.setup_id[0]),
        "setup_seed": int(plan.setup_seed[0]),
        "play_seed": int(plan.play_seed[0]),
    }
    args = (data, plan.lineup(spec.num_players, ids, params).replayed(0), labels)
    return game, names, args


def replay_game(run_dir: str | Path, game_index: int, states: bool = False) -> tuple[Game, list[dict[str, Any]]]:
    """The game engine and the events of game ``game_index`` of a run (a directory or an fsspec URL), exactly as
    it was played; with ``states`` every position event carries ``state`` and the setup event ``state_schema``."""
    game, names, args = _replay_args(run_dir, game_index)
    events = game.replay(*args, states=states)
    if states:
        events[0]["state_schema"] = STATE_SCHEMA
    events[0].update(names)
    return game, events


def replay_view(run_dir: str | Path, game_index: int, explain: bool = False) -> tuple[Game, dict[str, Any]]:
    """The game engine and what a replay page shows of game ``game_index`` (``Game.replay_view``, built with
    ``simulate.viewkit``); with ``explain`` the moves of the ``search`` and ``apprentice`` bots carry the options
    they weighed, where the game can tell them."""
    game, names, args = _replay_args(run_dir, game_index)
    view = game.replay_view(*args, explain=explain)
    view.update({**names, "state_schema": STATE_SCHEMA})
    return game, view
