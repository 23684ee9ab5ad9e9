"""Orchestration: plans and plays runs, then builds their documents (above the runner and the analysis).

``studies`` (each game's standard study), ``experiments`` (sweeps and ablations played on common random
numbers) and ``balance_search`` (the balance and tune searches over a game's values; not the game-playing
search bots of ``simulate.search``). The CLI commands call these; nothing below them imports them.
"""
