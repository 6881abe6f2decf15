"""Search strategies, one per module, all ``(game, start, budget) -> Result``."""
from __future__ import annotations

import importlib
from typing import Any, Callable

from solver.game import Game, SolitaireError
from solver.search.astar import astar
from solver.search.base import Budget, Result, without_forced
from solver.search.beam import beam
from solver.search.best_first import greedy
from solver.search.bfs import bfs
from solver.search.dfs import dfs
from solver.search.portfolio import portfolio

Strategy = Callable[[Game[Any, Any], Any, Budget], Result[Any]]


def cpsat(game: Game[Any, Any], start: Any, budget: Budget = Budget()) -> Result[Any]:
    """Solve with the game's CP-SAT model, where it has one.

    The model of the game defined in ``games/<module>.py`` is ``solver/cpsat/<module>.py``.
    """
    game_module = type(getattr(game, "_game", game)).__module__.rpartition(".")[2]
    module_name = "solver.cpsat." + game_module
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        if error.name != module_name:
            raise
        raise SolitaireError(f"no CP-SAT model for {game.name}; try --strategy best_first") from None
    result: Result[Any] = module.solve(game, start, budget)
    return result


STRATEGIES: dict[str, Strategy] = {
    "portfolio": portfolio,
    "best_first": greedy,
    "dfs": dfs,
    "astar": astar,
    "bfs": bfs,
    "beam": beam,
    "cpsat": cpsat,
}
OPTIMAL_STRATEGIES = ("astar", "bfs")


def find_strategy(name: str) -> Strategy:
    """Return the strategy called `name` (``best-first`` and ``best_first`` alike)."""
    strategy = STRATEGIES.get(name.replace("-", "_"))
    if strategy is None:
        raise SolitaireError(f"unknown strategy {name!r}; choose one of {', '.join(STRATEGIES)}")
    return strategy


__all__ = ["Budget", "Result", "STRATEGIES", "find_strategy", "without_forced",
           "dfs", "greedy", "astar", "bfs", "cpsat", "portfolio", "beam"]
