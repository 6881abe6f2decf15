"""Best-first search on f(steps so far, position); greedy, A* and uniform cost share it."""
from __future__ import annotations

from heapq import heappop, heappush
from typing import Any, Callable, Final

from solver.game import Game, Status
from solver.search.base import (Budget, Edge, Result, Run, Search, cost_of, finish, follow, granted,
                                moves_cost, path_to, settle)

Priority = Callable[[int, Any], int]

# The queue orders entries by one whole number: the priority shifted left by SHIFT bits
# plus the tie-break (the order of arrival, or the steps played with ``optimal``), which
# stays far below 2 ** SHIFT, so one comparison of ints decides where a tuple (priority,
# tie) would compare twice. A shift, not a product: compiled code multiplies by a factor
# of 2 ** 31 or more through CPython's long multiplication, which is slower and checks for
# signals, and mypyc takes the failure a signal handler's exception makes there for running
# out of memory and aborts (a SIGTERM test caught it: exit -6 where 143 was due).
SHIFT: Final = 40


def best_first(game: Game[Any, Any], start: Any, f: Priority, budget: Budget = Budget(), *,
               optimal: bool = False, newest_first: bool = False, ceiling: int | None = None,
               name: str = "best_first") -> Result[Any]:
    """Expand positions in order of f (see ``best_first_search``)."""
    return finish(best_first_search(game, start, f, budget, optimal=optimal,
                                    newest_first=newest_first, ceiling=ceiling, name=name))


def best_first_search(game: Game[Any, Any], start: Any, f: Priority | None,
                      budget: Budget = Budget(), *,
                      optimal: bool = False, newest_first: bool = False,
                      ceiling: int | None = None, name: str = "best_first") -> Search:
    """Expand positions in order of f(g, position), g the steps played so far.

    With ``optimal`` the goal is tested when a position is taken from the queue and a
    position reached again by fewer steps is reopened, so with an f that never
    overestimates (A*, uniform cost) the first win taken is a shortest one. Without it
    the goal is tested as soon as a position is generated (quicker, not shortest).
    Either way an emptied queue means every reachable position was seen: ``lost``.
    With `f` None the order is the game's heuristic alone (greedy), called directly.
    Among positions of equal f the oldest goes first, or the newest with
    ``newest_first`` (a dive: it settles plateaus of equal f differently); with
    ``optimal``, the one reached by the most steps (nearest a win when f is tight).
    With ``optimal`` and a `ceiling` (the length of a win already known), a position
    whose f reaches it is never stored: with an f that never overestimates, no win
    through it is shorter, so an emptied queue then proves that no shorter win exists.
    """
    run = Run(game, start, budget, name)
    pre, state = settle(game, start)
    key = game.key if optimal else game.verdict_key or game.key
    table, is_won = run.table, game.is_won
    moves, play, forced = game.moves, game.play, game.forced
    # the game's fused expansion, where it keys positions as this search does
    children = game.children if optimal or game.verdict_key is None else None
    cost = cost_of(game)
    g0 = moves_cost(play, cost, start, pre) if optimal else 0
    if not optimal and is_won(state):
        return run.result(Status.WON, [pre])
    root = table.digest(key(state))
    table.add(root, None)
    best_g = {root: g0}
    tie, step = 0, -1 if newest_first else 1
    push, pop = heappush, heappop       # local names: compiled, a module's global is a dict lookup
    heuristic = game.heuristic
    first = heuristic(state) if f is None else f(g0, state)
    entry = (first << SHIFT) - g0 if optimal else first << SHIFT
    queue: list[tuple[int, int, int, Any]] = [(entry, g0, root, state)]
    if optimal and ceiling is not None and first >= ceiling:
        queue.clear()
    try:
        while queue:
            _, g, digest, state = pop(queue)
            if optimal:
                if g > best_g[digest]:
                    continue                      # reached again by fewer steps since
                if is_won(state):
                    return run.result(Status.WON, [pre, *path_to(table, digest)], optimal=True)
            stopped = run.exhausted()
            if stopped == "max-states":
                stopped = yield from granted(run)
            if stopped:
                return run.result(Status.UNKNOWN, stopped_by=stopped)
            # base.successors without its generator, or the game's fused expansion
            for item in moves(state) if children is None else children(state):
                if children is None:
                    edge, child = follow(play, forced, state, item)
                    child_key = key(child)
                else:
                    fused: tuple[Edge, Any, bytes] = item     # typed: unpacked without an iterator
                    edge, child, child_key = fused
                child_g = g + moves_cost(play, cost, state, edge) if optimal else g + 1
                child_digest = table.digest(child_key)
                if optimal:
                    known = best_g.get(child_digest)
                    if known is not None and known <= child_g:
                        continue
                    if child is None:
                        child = play(state, edge[0])
                    assert f is not None
                    priority = f(child_g, child)
                    if ceiling is not None and priority >= ceiling:
                        continue                  # no win through it beats the ceiling
                    best_g[child_digest] = child_g
                    if known is None:
                        table.add(child_digest, (digest, edge))
                    else:
                        table.entries[child_digest] = (digest, edge)
                    push(queue, ((priority << SHIFT) - child_g, child_g, child_digest, child))
                    continue
                if not table.add(child_digest, (digest, edge)):
                    continue
                if child is None:                     # made only now that it is new
                    child = play(state, edge[0])
                elif is_won(child):
                    return run.result(Status.WON, [pre, *path_to(table, child_digest)])
                tie += step
                priority = heuristic(child) if f is None else f(child_g, child)
                push(queue, ((priority << SHIFT) + tie, child_g, child_digest, child))
    except MemoryError:
        return run.result(Status.UNKNOWN, stopped_by="memory")
    return run.result(Status.LOST, optimal=optimal)


BOUND_WEIGHT = 2        # the weight of the lower bound in ``weighted_search``


def weighted(game: Game[Any, Any], start: Any, budget: Budget = Budget()) -> Result[Any]:
    """Expand positions in order of moves so far + 2 x lower bound (see ``weighted_search``)."""
    return finish(weighted_search(game, start, budget))


def weighted_search(game: Game[Any, Any], start: Any, budget: Budget = Budget()) -> Search:
    """Return a resumable best-first search on f = moves so far + 2 x the game's
    ``lower_bound``: a weighted A*, neither greedy nor shortest.

    Why: greedy search on the heuristic alone stalls where the heuristic rewards moves
    that lead nowhere; counting the moves played pulls it back toward short lines, and
    the bound (what the cards still need) is a second judge of progress. Klondike-Solver's
    quick search orders positions likewise (moves so far plus twice what is left). On the
    Klondike deals of 1-1000 that the portfolio left undecided at 60 CPU s, the narrowed
    form won 4 of the 5 draw-1 deals and 6 of the 9 draw-3 deals that Klondike-Solver
    wins, within 10 CPU s each (data/klondike/winnability.md). Complete like any
    best-first search, so an emptied queue still proves a loss.
    """
    bound = game.lower_bound
    return best_first_search(game, start, lambda g, s: g + BOUND_WEIGHT * bound(s), budget,
                             name="weighted")


def greedy(game: Game[Any, Any], start: Any, budget: Budget = Budget(), *,
           newest_first: bool = False) -> Result[Any]:
    """Expand the position the game's heuristic likes best: usually the quickest win."""
    return finish(greedy_search(game, start, budget, newest_first=newest_first))


def greedy_search(game: Game[Any, Any], start: Any, budget: Budget = Budget(), *,
                  newest_first: bool = False) -> Search:
    """Return ``greedy`` as a resumable search (see ``solver.search.base.granted``)."""
    return best_first_search(game, start, None, budget,
                             newest_first=newest_first, name="best_first")
