"""Search strategies, one per module, all ``(game, start, budget) -> Result``."""
from __future__ import annotations

import contextlib
import functools
import gc
import time
from typing import Any, Callable, Iterator

from solver.game import Game, SolitaireError, Status
from solver.search.astar import astar
from solver.search.base import Budget, Result, without_forced
from solver.search.beam import beam
from solver.search.best_first import greedy, weighted
from solver.search.bfs import bfs
from solver.search.dfs import dfs
from solver.search.portfolio import portfolio
from solver.search.scored import scored

Strategy = Callable[[Game[Any, Any], Any, Budget], Result[Any]]


def cpsat(game: Game[Any, Any], start: Any, budget: Budget = Budget()) -> Result[Any]:
    """Solve with the game's CP-SAT model, where it offers one (``cpsat_solve``)."""
    solve = game.cpsat_solve
    if solve is None:
        raise SolitaireError(f"no CP-SAT model for {game.name}; try --strategy best_first")
    return solve(start, budget)


STRATEGIES: dict[str, Strategy] = {
    "portfolio": portfolio,
    "best_first": greedy,
    "weighted": weighted,
    "dfs": dfs,
    "astar": astar,
    "bfs": bfs,
    "beam": beam,
    "cpsat": cpsat,
    "scored": scored,
}
OPTIMAL_STRATEGIES = ("astar", "bfs")


def checked(strategy: Strategy, name: str) -> Strategy:
    """Return `strategy` preceded by the game's static proof of loss, where it has one.

    A game may offer ``dead_end(state)``: a one-line proof that no win is reachable (see
    ``solver.game``). A start position it proves dead is ``lost`` with no search, and the
    proof goes with the Result (``extra["proof"]``). The strategies do not call it on the
    positions they expand; a game for which that pays may leave every move out of a dead
    position in ``moves`` itself (Yukon does; in Klondike it decided no more deals of
    1-200 and slowed the median deal, see ``Klondike.narrow_moves``).
    """
    @functools.wraps(strategy)
    def search(game: Game[Any, Any], start: Any, budget: Budget = Budget()) -> Result[Any]:
        dead_end = game.dead_end
        if dead_end is not None:
            began, began_cpu = time.perf_counter(), time.process_time()
            proof = dead_end(start)
            if proof:
                return Result(Status.LOST, strategy=name,
                              seconds=time.perf_counter() - began,
                              cpu_seconds=time.process_time() - began_cpu,
                              extra={"proof": proof})
        with fewer_collections():
            return strategy(game, start, budget)
    return search


GC_THRESHOLD = 50_000               # allocations between young-generation collections


@contextlib.contextmanager
def fewer_collections() -> Iterator[None]:
    """Run the block with Python's cycle collector waking less often.

    A search allocates millions of short-lived tuples and keeps its positions in a queue
    or stack; at the default threshold (700 allocations) the collector walks them over
    and over, about a tenth of a FreeCell search's time, and finds almost no garbage
    (the search makes few cycles). Collections still happen, only less often, so no
    memory is lost; the threshold is put back afterwards.
    """
    young, *older = gc.get_threshold()
    gc.set_threshold(max(young, GC_THRESHOLD), *older)
    try:
        yield
    finally:
        gc.set_threshold(young, *older)


def find_strategy(name: str) -> Strategy:
    """Return the strategy called `name` (``best-first`` and ``best_first`` alike).

    The strategy comes ``checked``: a start position the game proves dead is lost at once.
    """
    strategy = STRATEGIES.get(name.replace("-", "_"))
    if strategy is None:
        raise SolitaireError(f"unknown strategy {name!r}; choose one of {', '.join(STRATEGIES)}")
    return checked(strategy, name.replace("-", "_"))


def check_strategy(game: Game[Any, Any], name: str) -> None:
    """Raise SolitaireError unless `name` is a strategy that can search `game`.

    Checked before any search starts, so that a run over many deals or strategies
    (``bench``, ``classify``) is refused at once, not after the others have run.
    """
    find_strategy(name)
    hooks = game
    kind = name.replace("-", "_")
    if kind == "cpsat" and hooks.cpsat_solve is None:
        raise SolitaireError(f"no CP-SAT model for {game.name}; try --strategy best_first")
    if kind == "scored" and hooks.best_line is None and (hooks.score is None
                                                         or hooks.best_score is None):
        raise SolitaireError(f"{game.name} is not a scored game; try --strategy dfs")


__all__ = ["Budget", "Result", "STRATEGIES", "find_strategy", "check_strategy", "checked",
           "without_forced",
           "dfs", "greedy", "weighted", "astar", "bfs", "cpsat", "portfolio", "beam", "scored"]
