"""A*: shortest solutions, counted in the game's steps, using its admissible lower bound."""
from __future__ import annotations

from typing import Any

from solver.search.base import Budget, Result, without_forced
from solver.search.best_first import best_first
from solver.game import Game


def astar(game: Game[Any, Any], start: Any, budget: Budget = Budget()) -> Result[Any]:
    """Return a solution with the fewest steps (f = steps so far + lower_bound).

    Forced moves are switched off: they are proven not to change a verdict, not to keep
    every shortest solution, so an optimality claim may not lean on them.
    """
    plain: Any = without_forced(game)      # the same game, so a Game to the search
    bound = game.lower_bound
    return best_first(plain, start, lambda g, s: g + bound(s), budget, optimal=True, name="astar")
