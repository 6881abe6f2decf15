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

A game may offer a streamlined key (``streamlined_key``, Solvitaire's streamliners: a
key coarser than any proven symmetry, say Spider's with the suits of face-up cards
dropped). Passes over it store fewer look-alike positions, meant to let the same width
hold more different lines; ``streamline`` says how they share the widths with the exact
passes (``plan``). The default, None, leaves them out: on Spider no schedule decided more
deals than the exact passes alone (data/spider/winnability.md).

Verdicts: a win is verified like any other. ``lost`` is returned only when one whole
pass over the exact key pruned nothing: it was then a breadth-first search with a table
of every position seen, so the reachable space was exhausted. A streamlined pass may
have merged a winnable position into a lost one, so it proves nothing even then. A pass
that pruned proves nothing, so when the budget runs out the answer is ``unknown``.
"""
from __future__ import annotations

import heapq
from typing import Any, Callable

from solver.game import Game, Status
from solver.search.base import Budget, Result, Run, path_to, settle, successors

START_WIDTH = 256
PASS_LIMIT = 300            # a pass storing more than this many positions per unit of width
                            # is wandering instead of dying out: start a wider one
STREAMLINE: str | None = None   # how passes use a game's streamlined key (``plan``); None:
                                # not at all (no schedule decided more Spider deals)
STREAMLINES = (None, "first", "mix", "only")


def beam(game: Game[Any, Any], start: Any, budget: Budget = Budget(), *,
         width: int = START_WIDTH, pass_limit: int | None = PASS_LIMIT,
         streamline: str | None = STREAMLINE) -> Result[Any]:
    """Search depth by depth, keeping the `width` best positions of each; widen and retry.

    `streamline` says how the passes use the game's ``streamlined_key``, if it has one
    (``plan``); a pass over it may win, never prove a loss.
    """
    if streamline not in STREAMLINES:
        raise ValueError(f"streamline must be one of {STREAMLINES}, got {streamline!r}")
    run = Run(game, start, budget, "beam")
    pre, state = settle(game, start)
    if game.is_won(state):
        return run.result(Status.WON, [pre])
    table, is_won = run.table, game.is_won
    hints = game
    heuristics = hints.beam_heuristics or (game.heuristic,)
    exact_key = hints.verdict_key or game.key
    streamlined = hints.streamlined_key
    strata = hints.beam_strata
    earlier = 0                                 # positions stored by the passes before
    rounds = 0
    try:
        while True:
            passes = plan(heuristics, exact_key, streamlined, streamline, rounds)
            rounds += 1
            for heuristic, key, proves in passes:
                earlier += len(table)
                table.entries.clear()               # each pass starts afresh
                if budget.max_states is not None:   # the state budget counts every pass
                    run.max_states = budget.max_states - earlier
                    if run.max_states <= 0:
                        return run.result(Status.UNKNOWN, stopped_by="max-states",
                                          width=width, stored=earlier)
                root = table.digest(key(state))
                table.add(root, None)
                level = [(root, state)]
                pruned = False
                tie = 0
                while level:
                    children: dict[int, Child] = {}
                    for digest, position in level:
                        stopped = run.exhausted()
                        if stopped:
                            return run.result(Status.UNKNOWN, stopped_by=stopped,
                                              width=width, stored=earlier + len(table))
                        for edge, child in successors(game, position):
                            child_digest = table.digest(key(child))
                            if child_digest in table.entries or child_digest in children:
                                continue
                            if is_won(child):
                                table.add(child_digest, (digest, edge))
                                found: dict[str, Any] = {} if proves else {"streamlined": True}
                                return run.result(
                                    Status.WON, [pre, *path_to(table, child_digest)],
                                    width=width, stored=earlier + len(table), **found)
                            tie += 1
                            children[child_digest] = (heuristic(child), tie, child_digest,
                                                      child, digest, edge)
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
                if not pruned and proves:   # a full breadth-first search: exhausted
                    return run.result(Status.LOST, width=width, stored=earlier + len(table))
            width *= 2
    except MemoryError:
        return run.result(Status.UNKNOWN, stopped_by="memory", width=width,
                          stored=earlier + len(table))


Child = tuple[int, int, int, Any, int, Any]     # heuristic, tie, digest, position, parent, edge
Pass = tuple[Callable[[Any], int], Callable[[Any], bytes], bool]     # heuristic, key, proves


def plan(heuristics: tuple[Callable[[Any], int], ...], exact: Callable[[Any], bytes],
         streamlined: Callable[[Any], bytes] | None, streamline: str | None,
         rounds: int) -> list[Pass]:
    """Return the passes at one width (the `rounds`-th): heuristic, key, whether it proves.

    Without a streamlined key (or `streamline` None) each heuristic has a pass over the
    exact key. "first": each heuristic over the streamlined key, then over the exact one
    (twice the passes a width). "mix": as many passes as without it, the heuristics
    taking the two keys in turn, the pairing swapped at every width. "only": streamlined
    passes alone, which never prove a loss (for measurement).
    """
    exact_passes = [(h, exact, True) for h in heuristics]
    if streamlined is None or streamline is None:
        return exact_passes
    streamlined_passes = [(h, streamlined, False) for h in heuristics]
    if streamline == "first":
        return streamlined_passes + exact_passes
    if streamline == "only":
        return streamlined_passes
    return [exact_passes[i] if (i + rounds) % 2 else streamlined_passes[i]
            for i in range(len(heuristics))]


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
