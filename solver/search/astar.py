"""A*: shortest solutions, counted in the game's steps (or its counted moves, where it
declares ``move_cost``), using its admissible lower bound.

The answer comes early: a quick search (the game's default strategy, or the portfolio)
first finds some win (the incumbent). When its
length equals the start's lower bound no shorter win can exist and it is returned, proven
shortest, at once (every Black Hole win, for one, has as many steps as cards). Otherwise
A* runs with the incumbent's length as a ceiling: a position whose f = g + lower bound
reaches it cannot lead to a shorter win and is never stored, so an emptied queue proves
the incumbent shortest. If the budget runs out first, the incumbent is still a win, only
not proven shortest.
"""
from __future__ import annotations

import dataclasses
import time
from typing import Any, Callable

from solver.game import Game, Status
from solver.search.base import Budget, Result, shortest_safe
from solver.search.best_first import best_first
from solver.search.portfolio import portfolio

FIRST_SHARE = 0.2        # of the state and time budget, for the quick search that seeds A*


def astar(game: Game[Any, Any], start: Any, budget: Budget = Budget()) -> Result[Any]:
    """Return a solution with the fewest steps or counted moves (f = so far + lower_bound).

    Forced moves are switched off in the A* pass unless the game proves that they keep
    a shortest win (``forced_keeps_shortest``): in general they are proven not to
    change a verdict, not to keep the shortest solution, and an optimality claim may
    not lean on them. Among positions of equal f the deepest is expanded first (it is
    nearer a win when the bound is tight). The quick first search may use them: it only
    supplies a ceiling and a fallback answer.
    """
    began, began_cpu = time.perf_counter(), time.process_time()
    budget = budget.start()                  # one deadline for both passes
    bound = game.lower_bound
    first = _quick(game)(game, start, budget.share(FIRST_SHARE))
    if first.status is Status.LOST:
        return dataclasses.replace(first, strategy="astar")
    incumbent = first if first.status is Status.WON else None
    if incumbent is not None and counted(incumbent) <= bound(start):
        return _done(incumbent, [], began, began_cpu, optimal=True)
    plain: Any = shortest_safe(game)      # the same game, so a Game to the search
    ceiling = counted(incumbent) if incumbent is not None else None
    rest = _rest(budget, first.stored)
    found = best_first(plain, start, lambda g, s: g + bound(s), rest, optimal=True,
                       ceiling=ceiling, name="astar")
    if found.status is Status.WON or incumbent is None:
        return _done(found, [first], began, began_cpu, optimal=found.optimal)
    # No shorter win: an exhausted queue proves the incumbent shortest.
    return _done(incumbent, [found], began, began_cpu, optimal=found.status is Status.LOST)


def counted(result: Result[Any]) -> int:
    """Return a win's length in the game's counted moves (its steps unless the game
    counts moves otherwise: ``Game.move_cost``)."""
    return int(result.extra.get("counted_moves", len(result.moves)))


def _quick(game: Game[Any, Any]) -> Callable[..., Result[Any]]:
    """Return the strategy that finds the first win: the game's default, unless that is
    itself a shortest-path search."""
    from solver.search import STRATEGIES           # the registry imports this module

    name = game.default_strategy
    if name in ("astar", "bfs") or name not in STRATEGIES:
        return portfolio
    return STRATEGIES[name]


def _rest(budget: Budget, stored: int) -> Budget:
    """What is left of the started `budget` for A* after the first search stored `stored`
    positions (memory is not shared: the first search's table is gone)."""
    return dataclasses.replace(
        budget, max_states=None if budget.max_states is None else max(1, budget.max_states - stored))


def _done(result: Result[Any], others: list[Result[Any]], began: float, began_cpu: float, *,
          optimal: bool) -> Result[Any]:
    """Return `result` as A*'s answer, adding the work of the `others` passes."""
    return dataclasses.replace(
        result, optimal=optimal, strategy="astar",
        stored=result.stored + sum(other.stored for other in others),
        expanded=result.expanded + sum(other.expanded for other in others),
        peak_memory=max([result.peak_memory, *(other.peak_memory for other in others)]),
        seconds=time.perf_counter() - began, cpu_seconds=time.process_time() - began_cpu)
