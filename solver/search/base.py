"""What every strategy shares: successors with forced moves, the run's bookkeeping, paths.

A strategy is a function ``(game, start, budget) -> Result``. It sees a game only
through the Game protocol. Search edges are tuples of search moves: the move chosen,
then the forced moves the game proves safe after it (``settle``). A won path is turned
into the game's steps and replayed by ``solver.verify`` before the Result is built.
"""
from __future__ import annotations

import time
from typing import Any, Callable, Generator, Iterable, Iterator, Sequence

from solver.game import Game, Status
from solver.search.result import Budget, Result
from solver.search.views import narrowed, without_forced
from solver.table import Table, default_memory
from solver.verify import check_solution

Edge = tuple[Any, ...]          # a search move followed by the forced moves it unlocked
SHORTCUT_LIMIT = 50_000         # longer paths are returned as found (shortcut is linear in them)


def settle(game: Game[Any, Any], state: Any) -> tuple[Edge, Any]:
    """Play forced moves until none is left; return them and the position reached."""
    played: list[Any] = []
    state = _play_forced(game.play, game.forced, state, game.forced(state), played)
    return tuple(played), state


Play = Callable[[Any, Any], Any]
Forced = Callable[[Any], list[Any]]


def follow(play: Play, forced: Forced, state: Any, move: Any) -> tuple[Edge, Any]:
    """Return (edge, child): `move` played, then the forced moves it unlocks.

    Takes the game's ``play`` and ``forced`` rather than the game, so that a search
    looks them up once, not once a child.
    """
    child = play(state, move)
    more = forced(child)
    if not more:
        return (move,), child
    edge = [move]
    child = _play_forced(play, forced, child, more, edge)
    return tuple(edge), child


def _play_forced(play: Play, forced: Forced, state: Any, more: list[Any],
                 played: list[Any]) -> Any:
    """Play `more` and the forced moves that follow until none is left, appending each
    to `played`; return the position reached."""
    while more:
        for move in more:
            state = play(state, move)
            played.append(move)
        more = forced(state)
    return state


def successors(game: Game[Any, Any], state: Any) -> Iterator[tuple[Edge, Any]]:
    """Yield (edge, child) for every search move, forced moves applied after each."""
    play, forced = game.play, game.forced
    for move in game.moves(state):
        yield follow(play, forced, state, move)


class Run:
    """Bookkeeping of one search: the table, counters, the clock and the budget."""

    def __init__(self, game: Game[Any, Any], start: Any, budget: Budget, strategy: str) -> None:
        self.game, self.start, self.budget, self.strategy = game, start, budget, strategy
        self.table = Table(budget.memory if budget.memory is not None else default_memory())
        self.expanded = 0
        self.began = time.perf_counter()
        self.began_cpu = time.process_time()
        self._clock = budget.clock
        self._deadline = budget.start().deadline
        self.max_states = budget.max_states
        self._progress = budget.progress

    def exhausted(self) -> str:
        """Return the budget that ran out ("" while all are left); call once per expansion."""
        self.expanded += 1
        return self._over()

    def _over(self) -> str:
        if self.max_states is not None and len(self.table) >= self.max_states:
            return "max-states"
        if self.table.full:
            return "memory"
        if not self.expanded & 255:
            if self._progress is not None:
                self._progress(self)
            if self._deadline is not None and self._clock() > self._deadline:
                return "seconds"
        return ""

    def result(self, status: Status, path: Sequence[Edge] = (), *, optimal: bool = False,
               stopped_by: str = "", stored: int | None = None, **extra: Any) -> Result[Any]:
        """Build the Result; a won path is expanded to steps and verified first.

        `stored` is the positions stored in all (default: the table's size now; a search
        that empties its table on the way, like beam's restarts, counts the earlier ones).
        """
        steps: tuple[Any, ...] = ()
        if status is Status.WON:
            if not optimal:
                path = shortcut(self.game, self.start, path)
            steps = tuple(to_steps(self.game, self.start, path))
            check_solution(self.game, self.start, steps)
            if self.game.move_cost is not None:
                extra["counted_moves"] = moves_cost(self.game.play, cost_of(self.game),
                                                    self.start, [m for edge in path for m in edge])
        return Result(status, steps, optimal=optimal, expanded=self.expanded,
                      stored=len(self.table) if stored is None else stored,
                      seconds=time.perf_counter() - self.began,
                      stopped_by=stopped_by, strategy=self.strategy,
                      peak_memory=self.table.peak,
                      cpu_seconds=time.process_time() - self.began_cpu, extra=extra)


# A resumable search is a generator: it yields its Run each time it reaches its state cap,
# and the caller sends back how many more states it may store (None or 0: stop there);
# its return value is the Result. ``finish`` drives one to the end with no more states.
Search = Generator["Run", "int | None", "Result[Any]"]

__all__ = ["Budget", "Result", "Run", "Search", "Edge", "settle", "successors", "narrowed",
           "without_forced", "follow", "granted", "finish", "shortcut", "to_steps", "path_to",
           "cost_of", "moves_cost", "shortest_safe"]


def granted(run: Run) -> Generator[Run, int | None, str]:
    """At the state cap, pause until granted more states (``yield from``); return the
    budget that ran out, or "" to go on.

    A search calls ``run.exhausted()`` once per expansion and enters this generator only
    when that answers "max-states", so no generator is made per expansion.
    """
    stopped = "max-states"
    while stopped == "max-states":
        more = yield run
        if not more:
            break
        assert run.max_states is not None
        run.max_states += more
        stopped = run._over()
    return stopped


def finish(search: Search) -> Result[Any]:
    """Run a resumable search to its end, granting no states beyond its budget."""
    try:
        next(search)
        search.send(None)
    except StopIteration as done:
        return done.value  # type: ignore[no-any-return]
    raise RuntimeError("a search went on after being told to stop")


def shortcut(game: Game[Any, Any], start: Any, path: Sequence[Edge]) -> list[Edge]:
    """Return a path to the same win that skips ahead wherever one move allows.

    A search's path wanders (a depth-first one most): from each position on it, if a
    single search move reaches a position further along the path, take that move and
    go on from there. Positions are compared exactly, not by key, so the edges after a
    jump still apply. The first edge (forced moves from the start) is kept as it is.
    Paths longer than SHORTCUT_LIMIT edges are left alone: the pass costs one move
    generation per edge, outside the search's budget.
    """
    if not 3 <= len(path) <= SHORTCUT_LIMIT:
        return list(path)
    # The game's methods are looked up once: on a view (solver.search.views) each lookup
    # is a Python-level __getattr__, which cost more than the move it fetched.
    play, forced = game.play, game.forced
    moves: Callable[[Any], Iterable[Any]] = game.moves
    # every position on the path is won, so a check that only proves positions lost
    # (Klondike's relaxed game) has nothing to find there
    won_line = game.won_line_moves
    if won_line is not None:
        moves = won_line(moves)
    states = [start]
    for edge in path:
        state = states[-1]
        for move in edge:
            state = play(state, move)
        states.append(state)
    where = {state: i for i, state in enumerate(states)}        # the last visit of each
    shorter, i = [path[0]], 1
    while i < len(path):
        best, edge = i + 1, path[i]
        state = states[i]
        for move in moves(state):
            candidate, child = follow(play, forced, state, move)
            j = where.get(child, -1)
            if j > best:
                best, edge = j, candidate
        shorter.append(edge)
        i = best
    return shorter


def to_steps(game: Game[Any, Any], start: Any, path: Sequence[Edge]) -> list[Any]:
    """Return the game's steps that carry out a path of search edges from `start`."""
    steps: list[Any] = []
    state = start
    expand, play = game.expand, game.play          # looked up once (see shortcut)
    for edge in path:
        for move in edge:
            steps.extend(expand(state, move))
            state = play(state, move)
    return steps


def shortest_safe(game: Game[Any, Any]) -> Game[Any, Any]:
    """Return the game as a shortest-path search may play it: with its forced moves
    only where they are proven to keep a shortest win (``forced_keeps_shortest``)."""
    if game.forced_keeps_shortest:
        return game
    plain: Any = without_forced(game)
    return plain  # type: ignore[no-any-return]


def cost_of(game: Game[Any, Any]) -> Callable[[Any, Any], int]:
    """Return what a search move counts for in a shortest solution: the game's
    ``move_cost`` where it declares one, else the steps the move expands to."""
    declared = game.move_cost
    if declared is not None:
        return declared
    expand = game.expand
    return lambda state, move: len(expand(state, move))


def moves_cost(play: Play, cost: Callable[[Any, Any], int], state: Any,
               moves: Sequence[Any]) -> int:
    """Return what `moves`, played in turn from `state`, count for under `cost`."""
    if len(moves) == 1:
        return cost(state, moves[0])
    total = 0
    for move in moves:
        total += cost(state, move)
        state = play(state, move)
    return total


def path_to(table: Table, digest: int) -> list[Edge]:
    """Return the edges from the root to `digest`, following parent links in the table."""
    path: list[Edge] = []
    link = table.entries[digest]
    while link is not None:
        parent, edge = link[0], link[1]
        path.append(edge)
        link = table.entries[parent]
    path.reverse()
    return path
