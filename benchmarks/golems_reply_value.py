"""Fit the Golems apprentice's reply value (``seeds/golems/apprentice_value.csv`` and its ``.toml``).

The apprentice's look-ahead (docs/golems.md) values the position after the opponent's reply by a logistic
regression of the mover's win on the 552 features, fitted here as ``golem train``'s iteration 0 fits its value:
every position of ``search`` mirror games at 2 players, from both seats' views (one game in ten held out for
the log loss printed; the written weights are refitted on every game). The shipped file came from::

    python benchmarks/golems_reply_value.py 1000 12345 seeds/golems
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np
import sklearn
import tomli_w

from simulate import __version__
from simulate.apprentice import weights_text
from simulate.datafiles import sha256
from simulate.games.golems.data import MAX_PLAYERS, VALUE_FILE, VALUE_PROVENANCE_FILE
from simulate.games.golems.features import FEATURES
from simulate.orchestration.training import _fit, _log_loss, _play_task
from simulate.registry import make

BATCH = 100


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", type=int, help="search mirror games at 2 players")
    parser.add_argument("seed", type=int, help="master seed of the games (game_seeds) and of the fit")
    parser.add_argument("out", type=Path, help="folder to write apprentice_value.csv and .toml into")
    args = parser.parse_args()
    game = make("golems")
    data_dir = Path("seeds/golems").resolve()
    start = time.time()
    parts = [
        _play_task(
            {
                "kind": "positions",
                "game": "golems",
                "data": str(data_dir),
                "rules": {},
                "players": 2,
                "bots": ["search"],
                "master": args.seed,
                "lo": lo,
                "hi": min(lo + BATCH, args.games),
            }
        )
        for lo in range(0, args.games, BATCH)
    ]
    x = np.concatenate([p[0] for p in parts]).astype(np.float64)
    y = np.concatenate([p[1] for p in parts])
    g = np.concatenate([p[2] for p in parts])
    held = g % 10 == 0
    w, _ = _fit(x[~held], y[~held], args.seed)
    loss, accuracy, base = _log_loss(w, x[held], y[held])
    w, _ = _fit(x, y, args.seed)
    weights = np.zeros((MAX_PLAYERS + 1, len(w)))
    weights[2] = w
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / VALUE_FILE).write_text(weights_text(weights, FEATURES, (2,)), encoding="utf-8")
    fit = {
        "command": f"python benchmarks/golems_reply_value.py {args.games} {args.seed} {args.out}",
        "lab_version": __version__,
        "engine_version": game.info.version,
        "teacher": "search",
        "games": args.games,
        "positions": len(y),
        "seed": args.seed,
        "held_out_log_loss": round(loss, 4),
        "held_out_accuracy": round(accuracy, 4),
        "constant_log_loss": round(base, 4),
        "seconds": round(time.time() - start, 1),
        "scikit_learn": sklearn.__version__,
        "numpy": np.__version__,
        "data_files": {name: sha256(data_dir / name) for name in ("cards.csv", "game.toml")},
    }
    header = f"# Provenance of {VALUE_FILE}: the Golems apprentice's reply value; refit with its command.\n"
    (args.out / VALUE_PROVENANCE_FILE).write_text(header + tomli_w.dumps({"fit": fit}), encoding="utf-8")
    print(json.dumps({k: v for k, v in fit.items() if k != "data_files"}))


if __name__ == "__main__":
    main()
