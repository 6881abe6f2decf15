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
from solver.search.beam import STREAMLINES, beam
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


def _count(text: str) -> int:
    value = int(text)
    if value < 1:
        raise ValueError(text)
    return value


def _count_or_none(text: str) -> int | None:
    return None if text == "none" else _count(text)


def _flag(text: str) -> bool:
    if text not in ("true", "false"):
        raise ValueError(text)
    return text == "true"


def _streamline(text: str) -> str | None:
    if text != "none" and text not in STREAMLINES:
        raise ValueError(text)
    return None if text == "none" else text


# The options a strategy's name may carry after a colon (``beam:width=16``), each with
# how its value is read and what it takes: the strategies' own keyword arguments.
STRATEGY_OPTIONS: dict[str, dict[str, tuple[Callable[[str], Any], str]]] = {
    "beam": {"width": (_count, "a whole number of at least 1 (the first pass's width)"),
             "pass_limit": (_count_or_none, "a whole number of at least 1, or none"),
             "streamline": (_streamline, "none, first, mix or only")},
    "best_first": {"newest_first": (_flag, "true or false")},
}


def strategy_kind(name: str) -> str:
    """Return the strategy a name calls, without its options (``beam:width=16``: beam)."""
    return name.split(":", 1)[0].replace("-", "_")


def find_strategy(name: str) -> Strategy:
    """Return the strategy called `name` (``best-first`` and ``best_first`` alike).

    A name may carry options after a colon, ``beam:width=16,pass_limit=200`` (the
    strategy's keyword arguments, ``STRATEGY_OPTIONS``): a beam that must decide under a
    small cap of positions starts narrower than its default, say. The strategy comes
    ``checked``: a start position the game proves dead is lost at once.
    """
    kind = strategy_kind(name)
    strategy = STRATEGIES.get(kind)
    if strategy is None:
        raise SolitaireError(f"unknown strategy {name!r}; choose one of {', '.join(STRATEGIES)}")
    if ":" in name:
        strategy = functools.partial(strategy, **_options(kind, name.split(":", 1)[1]))
    return checked(strategy, kind)


def _options(kind: str, text: str) -> dict[str, Any]:
    """Return the keyword arguments a strategy name's options give (``width=16``)."""
    known = STRATEGY_OPTIONS.get(kind, {})
    if not known:
        raise SolitaireError(f"strategy {kind} takes no options")
    options: dict[str, Any] = {}
    for item in text.split(","):
        option, _, value = item.partition("=")
        option = option.strip().replace("-", "_")
        if option not in known:
            raise SolitaireError(f"{kind} has no option {option!r}; its options: "
                                 f"{', '.join(known)}")
        read, takes = known[option]
        try:
            options[option] = read(value.strip().lower())
        except ValueError:
            raise SolitaireError(f"{kind}'s {option} takes {takes}, not {value.strip()!r}") \
                from None
    return options


def check_strategy(game: Game[Any, Any], name: str) -> None:
    """Raise SolitaireError unless `name` is a strategy that can search `game`.

    Checked before any search starts, so that a run over many deals or strategies
    (``bench``, ``classify``) is refused at once, not after the others have run.
    """
    find_strategy(name)
    hooks = game
    kind = strategy_kind(name)
    if kind == "cpsat" and hooks.cpsat_solve is None:
        raise SolitaireError(f"no CP-SAT model for {game.name}; try --strategy best_first")
    if kind == "scored" and hooks.best_line is None and (hooks.score is None
                                                         or hooks.best_score is None):
        raise SolitaireError(f"{game.name} is not a scored game; try --strategy dfs")


__all__ = ["Budget", "Result", "STRATEGIES", "STRATEGY_OPTIONS", "find_strategy",
           "check_strategy", "checked", "strategy_kind",
           "without_forced",
           "dfs", "greedy", "weighted", "astar", "bfs", "cpsat", "portfolio", "beam", "scored"]
