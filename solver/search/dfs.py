"""Depth-first search with a transposition table; exhausting it proves a deal lost."""
from __future__ import annotations

from typing import Any, Callable, Iterable, Iterator

from solver.game import Game, Status
from solver.search.base import Budget, Edge, Result, Run, Search, finish, follow, granted, settle


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
    moves, play, forced = game.moves, game.play, game.forced
    # the game's fused expansion, where it keys positions as this search does
    children = game.children if game.verdict_key is None else None
    expand: Callable[[Any], Iterable[Any]] = moves if children is None else children
    table.add(table.digest(key(state)))
    path = [pre]
    # The positions being expanded, each with an iterator over its moves (or, fused, its
    # children): what a stack of base.successors generators did, without a generator
    # object a position.
    states: list[Any] = [state]
    pending: list[Iterator[Any]] = [iter(expand(state))]
    try:
        while states:
            state = states[-1]
            for item in pending[-1]:
                if children is None:
                    edge, child = follow(play, forced, state, item)
                    if is_won(child):
                        path.append(edge)
                        return run.result(Status.WON, path)
                    child_key = key(child)
                else:
                    fused: tuple[Edge, Any, bytes] = item     # typed: unpacked without an iterator
                    edge, child, child_key = fused
                    if child is not None and is_won(child):
                        path.append(edge)
                        return run.result(Status.WON, path)
                if table.add(table.digest(child_key)):
                    if child is None:                 # made only now that it is new
                        child = play(state, edge[0])
                    stopped = run.exhausted()
                    if stopped == "max-states":
                        stopped = yield from granted(run)
                    if stopped:
                        return run.result(Status.UNKNOWN, stopped_by=stopped)
                    path.append(edge)
                    states.append(child)
                    pending.append(iter(expand(child)))
                    break
            else:
                states.pop()
                pending.pop()
                path.pop()
    except MemoryError:
        return run.result(Status.UNKNOWN, stopped_by="memory")
    return run.result(Status.LOST)
