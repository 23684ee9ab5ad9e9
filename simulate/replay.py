"""Re-simulate one game of a run from its manifest and seeds."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from simulate.game import Game
from simulate.lineup import lineup_arrays
from simulate.runformat import RunFormatError, check_header, check_inputs, read_manifest
from simulate.runner import derived_facts, load_run_data, plan_games, spec_from_manifest
from simulate.store import RunStore


def replay_game(run_dir: str | Path, game_index: int) -> tuple[Game, list[dict[str, Any]]]:
    """The game engine and the events of game ``game_index`` of a run (a directory or an fsspec URL), exactly as
    it was played."""
    store = RunStore(run_dir)
    manifest = read_manifest(store)
    check_header(manifest, store.name("manifest.json"))
    check_inputs(store, manifest, derive=derived_facts)  # the data copy, rules and bots it was played with
    if not 0 <= game_index < manifest["num_games"]:
        raise ValueError(f"game {game_index} is not in this run (games 0..{manifest['num_games'] - 1:,})")
    game, data = load_run_data(store, manifest)
    try:
        spec = spec_from_manifest(manifest)
        ids, params = lineup_arrays(game, spec.lineup)
    except (KeyError, TypeError, ValueError) as e:
        raise RunFormatError(
            f"{store.name('manifest.json')}: its lineup or rules do not fit the game ({e!r})"
        ) from None
    plan = plan_games(spec, game_index, game_index + 1)
    seat_lineup = plan.seat_lineup[0]
    labels = [spec.lineup[k].label for k in seat_lineup]
    events = game.replay(
        data,
        spec.num_players,
        seat_lineup,
        ids,
        params,
        int(plan.setup_seed[0]),
        int(plan.play_seed[0]),
        labels,
    )
    events[0].update(
        {
            "run_id": manifest["run_id"],
            "game": game_index,
            "setup_id": int(plan.setup_id[0]),
            "setup_seed": int(plan.setup_seed[0]),
            "play_seed": int(plan.play_seed[0]),
        }
    )
    return game, events
