"""Several strategies in turn with growing state caps: robust where one strategy stalls.

Greedy best-first search stalls on a plateau of equal heuristic values in some deals,
and which deals depends on how ties are broken; depth-first search wins others at once.
The portfolio runs greedy (oldest first), greedy (newest first) and dfs in turn, each
capped at the same number of stored states, and multiplies the cap by four after each
round, until one of them decides the deal or the budget runs out. Each run is complete
within its cap, so a run that empties its frontier proves the deal lost. The work
wasted on capped runs is bounded by a constant factor of the deciding run's.
"""
from __future__ import annotations

import dataclasses
import time
from functools import partial
from typing import Any

from solver.game import Game, Status
from solver.search.base import Budget, Result
from solver.search.best_first import greedy
from solver.search.dfs import dfs

FIRST_CAP = 2_000
GROWTH = 4
MEMBERS = (("best_first", greedy), ("best_first_newest", partial(greedy, newest_first=True)),
           ("dfs", dfs))


def portfolio(game: Game[Any, Any], start: Any, budget: Budget = Budget()) -> Result[Any]:
    """Return the first verdict of greedy (two tie orders) and dfs under growing caps."""
    began, began_cpu, started = time.perf_counter(), time.process_time(), budget.clock()
    expanded = stored = peak = 0
    cap = FIRST_CAP
    while True:
        for name, member in MEMBERS:
            left = None if budget.seconds is None else budget.seconds - (budget.clock() - started)
            states_left = None if budget.max_states is None else budget.max_states - stored
            if (left is not None and left <= 0) or (states_left is not None and states_left <= 0):
                stopped = "seconds" if left is not None and left <= 0 else "max-states"
                return _total(Result(Status.UNKNOWN, stopped_by=stopped), expanded, stored,
                              peak, began, began_cpu, name)
            limit = cap if states_left is None else min(cap, states_left)
            result = member(game, start, Budget(max_states=limit, seconds=left,
                                                memory=budget.memory, cpu=budget.cpu))
            expanded, stored = expanded + result.expanded, stored + result.stored
            peak = max(peak, result.peak_memory)
            capped = result.stopped_by == "max-states" and limit == cap
            if result.status is not Status.UNKNOWN or not capped:
                return _total(result, expanded, stored, peak, began, began_cpu, name)
        cap *= GROWTH


def _total(result: Result[Any], expanded: int, stored: int, peak: int, began: float,
           began_cpu: float, member: str) -> Result[Any]:
    return dataclasses.replace(
        result, expanded=expanded, stored=stored, peak_memory=peak, strategy="portfolio",
        seconds=time.perf_counter() - began, cpu_seconds=time.process_time() - began_cpu,
        extra={**result.extra, "decided_by": member})
