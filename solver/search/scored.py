"""Depth-first branch and bound for scored games: the best score reachable and a play to it.

A scored game (``score`` and ``best_score`` in ``solver.game.Game``) scores a play by
its last position, one with no move left. This search walks the positions depth first in
the game's move order, keeps the best end found so far (the incumbent) and the line to
it, and leaves out a position when the game's admissible ``score_bound`` says nothing
from it scores more than the incumbent. Reaching ``best_score`` ends the search: won.

Why the verdicts hold. Every position stored is expanded once (a transposition table of
``key``). A position met again is left out: when it was first expanded the incumbent was
no better than now, so every end from it that beats the present incumbent was searched
then (the bound prunes only what cannot beat the incumbent, and positions of equal keys
score alike). So when the stack empties, no reachable end beats the incumbent: the score
is proven best, and below ``best_score`` the verdict is ``lost`` with that score. A budget
that runs out gives ``unknown`` with the best score found so far.
"""
from __future__ import annotations

import dataclasses
from typing import Any, Callable

from solver.game import Game, SolitaireError, Status
from solver.search.base import Budget, Edge, Result, Run, settle, successors, to_steps
from solver.verify import replay


def scored(game: Game[Any, Any], start: Any, budget: Budget = Budget()) -> Result[Any]:
    """Return the best score reachable from `start` and a play that reaches it.

    ``won`` when the best possible score is reached; ``lost`` when the search was
    exhaustive and the best score (proven) is below it; ``unknown`` when a budget ran out,
    with the best score found (``Result.score``; None if no end was reached yet). The
    play (``Result.moves``) is replayed through the rules before it is returned. A game
    with its own search (``best_line``) is handed the position.
    """
    hooks = game
    if hooks.best_line is not None:                    # the game's own search
        return hooks.best_line(start, budget)
    score, best = hooks.score, hooks.best_score
    if score is None or best is None:
        raise SolitaireError(f"{game.name} is not a scored game; try --strategy dfs")
    bound: Callable[[Any], int] = hooks.score_bound or (lambda state: best)
    run = Run(game, start, budget, "scored")
    table, key, is_won = run.table, game.key, game.is_won
    pre, state = settle(game, start)
    path: list[Edge] = [pre]
    if is_won(state):
        return _scored(run.result(Status.WON, path), best)
    incumbent: int | None = None
    best_path: list[Edge] = []
    table.add(table.digest(key(state)))
    children = list(successors(game, state))
    if not children:                                   # the game is over at the start
        return _best(game, run, start, Status.LOST, path, score(state))
    stack = [iter(children)]
    try:
        while stack:
            for edge, child in stack[-1]:
                if is_won(child):
                    path.append(edge)
                    return _scored(run.result(Status.WON, path), best)
                if incumbent is not None and bound(child) <= incumbent:
                    continue
                if not table.add(table.digest(key(child))):
                    continue
                stopped = run.exhausted()
                if stopped:
                    return _best(game, run, start, Status.UNKNOWN, best_path, incumbent, stopped)
                path.append(edge)
                children = list(successors(game, child))
                if children:
                    stack.append(iter(children))
                    break
                value = score(child)                    # an end: no move is left
                if incumbent is None or value > incumbent:
                    incumbent, best_path = value, list(path)
                path.pop()
            else:
                stack.pop()
                path.pop()
    except MemoryError:
        return _best(game, run, start, Status.UNKNOWN, best_path, incumbent, "memory")
    return _best(game, run, start, Status.LOST, best_path, incumbent)


def _scored(result: Result[Any], value: int) -> Result[Any]:
    return dataclasses.replace(result, score=value)


def _best(game: Game[Any, Any], run: Run, start: Any, status: Status, path: list[Edge],
          value: int | None, stopped_by: str = "") -> Result[Any]:
    """Return the Result of a search that did not reach the best possible score: the
    best end found (`value`, reached by `path`) as steps, replayed through the rules."""
    result = run.result(status, stopped_by=stopped_by)
    if value is None:
        return result
    steps = tuple(to_steps(game, start, path))
    final = replay(game, start, steps)
    score = game.score
    assert score is not None and score(final) == value, f"{game.name}: the best line scores otherwise"
    return dataclasses.replace(result, moves=steps, score=value)
