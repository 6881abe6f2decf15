"""Breadth-first search by steps (uniform cost): shortest solutions with no heuristic."""
from __future__ import annotations

from typing import Any

from solver.game import Game
from solver.search.base import Budget, Result, shortest_safe
from solver.search.best_first import best_first


def bfs(game: Game[Any, Any], start: Any, budget: Budget = Budget()) -> Result[Any]:
    """Return a solution with the fewest steps, searching outward by steps played.

    A search move may stand for several steps (a macro), so the frontier is ordered by
    steps, not by edges: this is uniform-cost search, breadth-first in the game's unit.
    """
    plain: Any = shortest_safe(game)      # the same game, so a Game to the search
    return best_first(plain, start, lambda g, s: g, budget, optimal=True, name="bfs")
