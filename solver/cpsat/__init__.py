"""CP-SAT (OR-Tools) models for games that suit a constraint formulation.

One module per game, named after the game (``black_hole.py`` for ``black-hole``), each with
``build_model(game, state)`` and ``solve(game, state, budget) -> Result``. The models read
positions through the game's documented State fields; they never import ``games``.
"""
