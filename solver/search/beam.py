"""Beam search with widening restarts: keep the best few positions of each depth.

Greedy best-first on a game with large plateaus (Spider) dives to a dead end and then
sits there, expanding equal-looking positions near the end of the game. A beam keeps
progress balanced: each depth keeps only the ``width`` positions the heuristic likes
best, so the search reaches the end of the game many times over with different
choices. When a beam dies out without a win the search restarts with twice the width.
A game may name several heuristics (``beam_heuristics``): the passes then take them in
turn, each at the same width, before the width doubles; each heuristic wins deals the
others miss, and a pass is cheap next to the wider ones that follow.

A game may also sort positions into stages (``beam_strata``, say the cards left in
Spider's stock): each depth then keeps the best of every stage, the width shared evenly
among the stages present, so positions that are behind in one respect but ahead in
another (not yet dealt, fewer cards turned) are not all crowded out by one heuristic.

Verdicts: a win is verified like any other. ``lost`` is returned only when one whole
pass pruned nothing: it was then a breadth-first search with a table of every position
seen, so the reachable space was exhausted. A pass that pruned proves nothing, so when
the budget runs out the answer is ``unknown``.
"""
from __future__ import annotations

import heapq
from typing import Any, Callable

from solver.game import Game, Status, guidance
from solver.search.base import Budget, Result, Run, path_to, settle, successors

START_WIDTH = 256
PASS_LIMIT = 300            # a pass storing more than this many positions per unit of width
                            # is wandering instead of dying out: start a wider one


def beam(game: Game[Any, Any], start: Any, budget: Budget = Budget(), *,
         width: int = START_WIDTH, pass_limit: int | None = PASS_LIMIT) -> Result[Any]:
    """Search depth by depth, keeping the `width` best positions of each; widen and retry."""
    run = Run(game, start, budget, "beam")
    pre, state = settle(game, start)
    if game.is_won(state):
        return run.result(Status.WON, [pre])
    table, is_won = run.table, game.is_won
    hints = guidance(game)
    heuristics = hints.beam_heuristics or (game.heuristic,)
    key = hints.verdict_key or game.key
    strata = hints.beam_strata
    earlier = 0                                 # positions stored by the passes before
    passes = 0
    try:
        while True:
            heuristic = heuristics[passes % len(heuristics)]
            passes += 1
            earlier += len(table)
            table.entries.clear()               # each pass starts afresh
            if budget.max_states is not None:   # the state budget counts every pass
                run.max_states = budget.max_states - earlier
                if run.max_states <= 0:
                    return run.result(Status.UNKNOWN, stopped_by="max-states", width=width,
                                      stored=earlier)
            root = table.digest(key(state))
            table.add(root, None)
            level = [(root, state)]
            pruned = False
            tie = 0
            while level:
                children: dict[int, tuple[int, int, int, Any, int, Any]] = {}
                for digest, position in level:
                    stopped = run.exhausted()
                    if stopped:
                        return run.result(Status.UNKNOWN, stopped_by=stopped, width=width,
                                          stored=earlier + len(table))
                    for edge, child in successors(game, position):
                        child_digest = table.digest(key(child))
                        if child_digest in table.entries or child_digest in children:
                            continue
                        if is_won(child):
                            table.add(child_digest, (digest, edge))
                            return run.result(Status.WON, [pre, *path_to(table, child_digest)],
                                              width=width, stored=earlier + len(table))
                        tie += 1
                        children[child_digest] = (heuristic(child), tie, child_digest, child,
                                                  digest, edge)
                chosen: Any = children.values()
                if len(children) > width:
                    chosen = best(chosen, width, strata)
                    pruned = pruned or len(chosen) < len(children)
                level = []
                for _, _, child_digest, child, parent, edge in chosen:
                    table.add(child_digest, (parent, edge))
                    level.append((child_digest, child))
                if pruned and pass_limit is not None and len(table) > pass_limit * width:
                    break                       # wandering: widen
            if not pruned:                      # a full breadth-first search: exhausted
                return run.result(Status.LOST, width=width, stored=earlier + len(table))
            if passes % len(heuristics) == 0:   # each heuristic has had this width
                width *= 2
    except MemoryError:
        return run.result(Status.UNKNOWN, stopped_by="memory", width=width,
                          stored=earlier + len(table))


Child = tuple[int, int, int, Any, int, Any]     # heuristic, tie, digest, position, parent, edge


def best(children: Any, width: int, strata: Callable[[Any], int] | None) -> list[Child]:
    """Return the children a level keeps: the `width` best, or the best of each stratum.

    With strata, each stratum present keeps its ``width // strata`` best (at least one),
    so fewer than `width` are kept when some strata have fewer children than their share.
    """
    if strata is None:
        return heapq.nsmallest(width, children)
    groups: dict[int, list[Child]] = {}
    for child in children:
        stratum = strata(child[3])
        group = groups.get(stratum)
        if group is None:
            groups[stratum] = [child]
        else:
            group.append(child)
    share = max(width // len(groups), 1)
    chosen: list[Child] = []
    for group in groups.values():
        chosen += heapq.nsmallest(share, group) if len(group) > share else group
    return chosen
