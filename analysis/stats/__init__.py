"""Statistics over run tables: DataFrames in, DataFrames (or named results) out; they never play a game.

Safe on anyone's tables: each function lists the columns it needs and raises ``ValueError`` naming
the missing ones. ``seats`` (seat advantage, win rates), ``setups`` (setup variance and features),
``strategies`` (head-to-head, ratings), ``components``, ``outcomes``, ``convergence``, ``profile``
(how often each bot uses each mechanism), ``ladder`` (seat advantage up the skill ladder; skill against luck),
``feel`` (how the game plays, from trajectories: leader wins, lead changes, comebacks, decisiveness), ``paired``
(paired effects of experiment variants), ``sequential`` (stopping rules) and ``synthetic`` (runs with
planted effects, for tests).
"""
