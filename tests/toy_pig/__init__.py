"""Pig, a toy game that plugs into the lab the way docs/adding-a-game.md says: its own package and one registry line
(``simulate.registry.register_game``), checked by ``simulate.conformance.check_game``."""
