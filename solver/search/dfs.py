"""Depth-first search with a transposition table; exhausting it proves a deal lost."""
from __future__ import annotations

from typing import Any

from solver.game import Game, Status
from solver.search.base import Budget, Result, Run, Search, finish, granted, settle, successors


def dfs(game: Game[Any, Any], start: Any, budget: Budget = Budget()) -> Result[Any]:
    """Search depth first in the game's move order; stop at the first win.

    Every position reached is stored, so each is expanded once; when the stack empties
    the whole reachable space (up to forced moves, each proven safe) has been seen and
    the verdict is ``lost``.
    """
    return finish(dfs_search(game, start, budget))


def dfs_search(game: Game[Any, Any], start: Any, budget: Budget = Budget()) -> Search:
    """Return ``dfs`` as a resumable search (see ``solver.search.base.granted``)."""
    run = Run(game, start, budget, "dfs")
    pre, state = settle(game, start)
    if game.is_won(state):
        return run.result(Status.WON, [pre])
    table, key, is_won = run.table, game.verdict_key or game.key, game.is_won
    table.add(table.digest(key(state)))
    path = [pre]
    stack = [successors(game, state)]
    try:
        while stack:
            for edge, child in stack[-1]:
                if is_won(child):
                    path.append(edge)
                    return run.result(Status.WON, path)
                if table.add(table.digest(key(child))):
                    stopped = run.exhausted()
                    if stopped == "max-states":
                        stopped = yield from granted(run)
                    if stopped:
                        return run.result(Status.UNKNOWN, stopped_by=stopped)
                    path.append(edge)
                    stack.append(successors(game, child))
                    break
            else:
                stack.pop()
                path.pop()
    except MemoryError:
        return run.result(Status.UNKNOWN, stopped_by="memory")
    return run.result(Status.LOST)
