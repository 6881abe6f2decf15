"""Several strategies taking turns under growing state caps: robust where one stalls.

Greedy best-first search stalls on a plateau of equal heuristic values in some deals,
and which deals depends on how ties are broken; depth-first search wins others at once.
The portfolio runs its members in turn, each a resumable search (it pauses at its state
cap and goes on from where it stopped when granted more), doubling the grants after
each round, until one of them decides the deal or the budget runs out. No work is
repeated. The default members are greedy (oldest first), greedy (newest first) and
dfs; a game may name its own with a ``portfolio`` class attribute. Each full member is
complete, so one that empties its frontier proves the deal lost.

One complete member is the anchor: ``dfs`` where the portfolio has it, else its last
complete member. After the first rounds (``EQUAL_ROUNDS``, equal caps up to 8,000
positions a member, so that quick wins cost what they did) it takes its turn first and
is granted as many states as all the others together: when it decides, the others have
stored no more than it has, give or take those first rounds. Why: a deal is proven lost
only when one complete member has stored every reachable position, and with equal
shares every complete member stores that same space in its own table. On Gaps with no
redeal, deal 7016 (lost, 1,370,418 positions) took plain dfs 13 CPU s and the default
three members with equal shares 38-40 (the greedy members store the same positions at
three quarters of dfs's speed). With the anchor's half the portfolio stores at most
about twice what its dfs alone would, so it decides the deals dfs decides within about
twice dfs's time (``benchmarks/dfs_check.py``, data/portfolio-vs-dfs.md). A game may
ask for more rounds before the anchor's half (``portfolio_equal_rounds``) and give its
members unequal shares in them (``portfolio_shares``): FreeCell's greedy members win most
deals where its dfs wanders, so each gets twice dfs's share for four rounds. Each round
added is a fixed cost on top of what dfs alone decides in.

A member named ``narrow_<member>`` runs over the game's ``narrow_moves`` (see
``solver.search.base.narrowed``): it can win, never prove a loss. When it exhausts its
narrowed space it leaves the portfolio and the others go on.

A member named ``freer_<member>`` searches the same position in a variant at least as
winnable (the game's ``freer`` hook, e.g. Klondike drawing one card with unlimited
passes for any other Klondike): it can prove a loss, never win. When it wins it leaves
the portfolio (a win there is none here) and the others go on.

Every member gets the whole memory budget: a table counts the growth of the process's
resident memory (``solver.table``), which all members share, so each one already stops
when the portfolio as a whole reaches the budget.
"""
from __future__ import annotations

import dataclasses
import time
from functools import partial
from typing import Any, Callable

from solver.game import DEFAULT_EQUAL_ROUNDS, DEFAULT_PORTFOLIO, Game, Status
from solver.search.base import Budget, Result, Run, Search, narrowed
from solver.search.best_first import greedy_search, weighted_search
from solver.search.dfs import dfs_search

FIRST_CAP = 2_000
GROWTH = 2
EQUAL_ROUNDS = DEFAULT_EQUAL_ROUNDS   # rounds with equal caps (2,000, 4,000, 8,000) before the anchor's half
MEMBERS: dict[str, Callable[..., Search]] = {
    "best_first": greedy_search,
    "best_first_newest": partial(greedy_search, newest_first=True),
    "dfs": dfs_search,
    "weighted": weighted_search,
}
DEFAULT_MEMBERS = DEFAULT_PORTFOLIO
NARROW = "narrow_"
ANCHOR = "dfs"
FREER = "freer_"


def members(game: Game[Any, Any]) -> list[tuple[str, Callable[..., Search], bool]]:
    """Return (name, resumable search, complete) for each member of the game's portfolio."""
    hints = game
    names = hints.portfolio
    chosen = []
    for name in names:
        narrow, freer = name.startswith(NARROW), name.startswith(FREER)
        base = name[len(NARROW):] if narrow else name[len(FREER):] if freer else name
        if base not in MEMBERS:
            raise ValueError(f"unknown portfolio member {name!r}")
        if narrow and hints.narrow_moves is None:
            raise ValueError(f"{name!r}: {game.name} has no narrow_moves")
        if freer and hints.freer is None:
            raise ValueError(f"{name!r}: {game.name} has no freer variant")
        chosen.append((name, MEMBERS[base], not (narrow or freer)))
    if not any(complete for _, _, complete in chosen):
        raise ValueError("a portfolio needs a complete member (one not narrowed)")
    return chosen


def anchor(chosen: list[tuple[str, Callable[..., Search], bool]]) -> int:
    """Return the index of the member granted half the states: ``dfs``, else the last
    complete member (``members`` makes sure there is one)."""
    names = [name for name, _, _ in chosen]
    if ANCHOR in names:
        return names.index(ANCHOR)
    return max(i for i, (_, _, complete) in enumerate(chosen) if complete)


def portfolio(game: Game[Any, Any], start: Any, budget: Budget = Budget()) -> Result[Any]:
    """Return the first verdict of the members, taking turns under growing caps."""
    began, began_cpu = time.perf_counter(), time.process_time()
    chosen = members(game)
    lead = chosen[anchor(chosen)][0]
    equal_rounds = game.portfolio_equal_rounds
    weights = shares_of(game, chosen)
    budget = budget.start()        # one deadline, at which each member stops by itself
    cap = FIRST_CAP if budget.max_states is None else \
        max(1, min(FIRST_CAP, budget.max_states // sum(weights.values())))
    active: list[tuple[str, Search, bool]] = []
    runs: dict[str, Run] = {}
    freer = game.freer
    for name, member, complete in chosen:
        if name.startswith(FREER) and freer is not None:
            searched, position = freer(start)
        else:
            searched, position = game if complete else narrowed(game), start
        share = dataclasses.replace(budget, max_states=cap * weights[name])
        active.append((name, member(searched, position, share), complete))
    grant: int | None = None                  # None: start each search
    rounds = 0
    while True:
        # The first rounds as they always were (caps in proportion to the members'
        # shares, in the game's order: quick wins cost what they did), then the anchor
        # first with the others' share.
        weighted = rounds >= equal_rounds
        turns = sorted(active, key=lambda entry: entry[0] != lead) if weighted else active
        others = sum(weights[name] for name, _, _ in active if name != lead)
        for entry in list(turns):
            name, search, complete = entry
            try:
                weight = max(1, others) if weighted and name == lead else weights[name]
                runs[name] = next(search) if grant is None else search.send(grant * weight)
            except StopIteration as done:
                result: Result[Any] = done.value
                useless = Status.WON if name.startswith(FREER) else Status.LOST
                if not complete and result.status is useless:
                    # a narrowed space exhausted, or a win in the freer variant: no verdict
                    active.remove(entry)
                    runs.pop(name, None)
                    continue
                rest = [run for other, run in runs.items() if other != name]
                return _total(result, rest, began, began_cpu, name, active, search)
        stored = sum(len(run.table) for run in runs.values())
        if budget.max_states is not None and stored >= budget.max_states:
            return _stop(Result(Status.UNKNOWN, stopped_by="max-states"), stored, began,
                         began_cpu, active)
        rounds += 1
        grant = cap * (GROWTH - 1)
        if budget.max_states is not None:
            others = sum(weights[name] for name, _, _ in active if name != lead)
            shares = 2 * max(1, others) if rounds >= equal_rounds else \
                sum(weights[name] for name, _, _ in active)
            grant = max(1, min(grant, (budget.max_states - stored) // shares))
        cap += grant


def shares_of(game: Game[Any, Any],
              chosen: list[tuple[str, Callable[..., Search], bool]]) -> dict[str, int]:
    """Return each member's share of a round's grant before the anchor's half: the
    game's ``portfolio_shares`` (one whole number a member), else one each."""
    declared = game.portfolio_shares
    if declared is None:
        return {name: 1 for name, _, _ in chosen}
    if len(declared) != len(chosen) or min(declared) < 1:
        raise ValueError(f"{game.name}: portfolio_shares needs one whole number >= 1 a member, "
                         f"got {declared!r} for {len(chosen)} members")
    return {name: share for (name, _, _), share in zip(chosen, declared)}


def _stop(result: Result[Any], stored: int, began: float, began_cpu: float,
          active: list[tuple[str, Search, bool]]) -> Result[Any]:
    for _, search, _ in active:
        search.close()
    return dataclasses.replace(
        result, stored=stored, strategy="portfolio", seconds=time.perf_counter() - began,
        cpu_seconds=time.process_time() - began_cpu)


def _total(result: Result[Any], others: list[Run], began: float, began_cpu: float, member: str,
           active: list[tuple[str, Search, bool]], done: Search) -> Result[Any]:
    for _, search, _ in active:
        if search is not done:
            search.close()
    return dataclasses.replace(
        result, stored=result.stored + sum(len(run.table) for run in others),
        expanded=result.expanded + sum(run.expanded for run in others),
        peak_memory=max([result.peak_memory, *(run.table.peak for run in others)]),
        strategy="portfolio",
        seconds=time.perf_counter() - began, cpu_seconds=time.process_time() - began_cpu,
        extra={**result.extra, "decided_by": member})
