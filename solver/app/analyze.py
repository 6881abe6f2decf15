"""What the commands ask of one position: a verdict, a hint, every move's verdict, a replay.

Silent library functions returning data; the CLI prints. They use a game only through
the Game protocol, so they work for every game in the registry.
"""
from __future__ import annotations

import dataclasses
import gc
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from solver.game import Game, SolitaireError, Status
from solver.search import Budget, Result, find_strategy
from solver.verify import replay_written


def solve(game: Game[Any, Any], state: Any, strategy: str | None = None,
          budget: Budget = Budget()) -> Result[Any]:
    """Return the verdict of `strategy` on `state` (a won Result is already verified).

    With no strategy named, the game's ``default_strategy`` (else the portfolio) is used.
    Every command's search goes through here, and so does what the game's text leaves
    unknown (``within_what_is_known``).
    """
    _settle_startup_objects()
    result = find_strategy(default_strategy(game, strategy))(game, state, budget)
    return within_what_is_known(game, state, result)


_settled = False


def _settle_startup_objects() -> None:
    """Put the objects alive before a process's first search (modules, tables, the
    command line's machinery) out of the cyclic garbage collector's sight, once a process
    (``gc.freeze``). A search allocates fast, so the collector runs often, and each full
    collection walks every tracked object: with the plotting, CP-SAT and cluster modules
    imported, Klondike draw 1's regression line took 0.127 CPU s, frozen 0.074. Frozen
    objects are still freed when nothing refers to them; only cycles among them are kept.
    """
    global _settled
    if not _settled:
        _settled = True
        gc.collect()
        gc.freeze()


def within_what_is_known(game: Game[Any, Any], state: Any, result: Result[Any]) -> Result[Any]:
    """Return `result` as far as the position's text lets it speak.

    A game whose text can leave part of its future unknown (``unknown_future`` in
    ``solver.game.Game``: a Gaps board without its deal number has unknown redeals)
    searches without those moves. A win stands; a ``lost`` is no proof then, so it
    becomes ``unknown``, stopped by what is unknown, with the reason in ``extra``; and
    no line is proven shortest or best.
    """
    unknown_future = game.unknown_future
    unknown = None if unknown_future is None else unknown_future(state)
    if unknown is None:
        return result
    stopped_by, reason = unknown
    if result.status is Status.LOST:
        return dataclasses.replace(result, status=Status.UNKNOWN, optimal=False,
                                   stopped_by=stopped_by, extra={**result.extra, "reason": reason})
    if result.optimal:
        return dataclasses.replace(result, optimal=False, extra={**result.extra, "reason": reason})
    return result


def default_strategy(game: Game[Any, Any], strategy: str | None = None) -> str:
    """Return `strategy`, or the game's default when it is None."""
    chosen: str = strategy or game.default_strategy
    return chosen


@dataclass(frozen=True)
class MoveVerdict:
    """One legal move from a position and what search says of the position after it."""

    steps: tuple[str, ...]        # the move in notation, as single steps
    status: Status                # the verdict of the position after the move
    result: Result[Any]
    wins_now: bool = False        # the move itself ends the game won

    @property
    def label(self) -> str:
        """The word a player reads: ``wins``, ``winnable``, ``lost`` or ``unknown``."""
        if self.wins_now:
            return "wins"
        return {Status.WON: "winnable", Status.LOST: "lost", Status.UNKNOWN: "unknown"}[self.status]


def hint(game: Game[Any, Any], state: Any, strategy: str | None = None,
         budget: Budget = Budget()) -> tuple[Result[Any], tuple[Any, ...]]:
    """Return the search result from `state` and the first move of its solution as steps.

    The first move is the search move the solution starts with (a whole run in
    FreeCell), as the game's steps; it is empty unless the result is ``won`` (and
    empty for a position that is won already), or a scored game's play to the best
    score found (``lost`` or ``unknown`` with a score: the best line still has a move).
    """
    result = solve(game, state, strategy, budget)
    if not result.moves or result.status is not Status.WON and result.score is None:
        return result, ()
    return result, tuple(_first_search_move(game, state, result.moves))


def all_moves(game: Game[Any, Any], state: Any, strategy: str | None = None,
              budget: Budget = Budget(),
              on_move: Callable[[MoveVerdict], None] | None = None) -> list[MoveVerdict]:
    """Return every legal move from `state` with the verdict of the position after it
    (the game's ``legal_moves`` where ``moves`` leaves some out).

    `budget` is for the whole call: its seconds and states are shared equally among the
    moves (each search gets its share), so the call ends within the budget given.
    The position after a move has the game's proven-safe forced moves played, as
    search would; moves that win at once come first, then winnable ones, unknown, lost (in
    a scored game, the best score first within each).
    `on_move` is called after each move is searched (for a progress bar).
    """
    moves = listed_moves(game, state)
    share = budget.split(len(moves))
    verdicts = []
    for move in moves:
        steps = tuple(game.notation(m) for m in game.expand(state, move))
        child = game.play(state, move)
        result = solve(game, child, strategy, share)
        verdict = MoveVerdict(steps, result.status, result, wins_now=game.is_won(child))
        verdicts.append(verdict)
        if on_move is not None:
            on_move(verdict)
    order = {"wins": 0, "winnable": 1, "unknown": 2, "lost": 3}
    verdicts.sort(key=lambda v: (order[v.label], -(v.result.score or 0)))   # stable
    return verdicts


def listed_moves(game: Game[Any, Any], state: Any) -> list[Any]:
    """Return every legal move a player may ask about: the game's ``legal_moves`` where
    ``moves`` leaves some out, else ``moves``."""
    return list((game.legal_moves or game.moves)(state))


@dataclass(frozen=True)
class Stage:
    """A stretch of a solution a player reads as one: a step, or a run of equal steps."""

    first: int                    # index of its first step (0-based)
    count: int                    # how many equal steps (Klondike's turns of the stock)
    notation: str
    phrase: str                   # the game's description, naming the card
    after: Any                    # the position after the stage

    def __str__(self) -> str:
        times = f" ×{self.count}" if self.count > 1 else ""
        return f"{self.phrase}{times}"


def narrate(game: Game[Any, Any], state: Any, steps: Sequence[Any]) -> list[Stage]:
    """Return a solution's steps as stages a player can follow, with the positions after.

    Consecutive steps with the same notation and description (turning the stock eight
    times) form one stage.
    """
    stages: list[Stage] = []
    for index, step in enumerate(steps):
        notation, phrase = game.notation(step), game.describe(state, step)
        state = game.play(state, step)
        last = stages[-1] if stages else None
        if last is not None and last.notation == notation and last.phrase == phrase:
            stages[-1] = dataclasses.replace(last, count=last.count + 1, after=state)
        else:
            stages.append(Stage(index, 1, notation, phrase, state))
    return stages


@dataclass(frozen=True)
class Replay:
    """The outcome of replaying a move list that was legal throughout."""

    final: Any
    length: int
    won: bool
    steps: tuple[Any, ...] = ()       # the moves as the game's steps, in order


def verify_moves(game: Game[Any, Any], state: Any, moves: Sequence[str]) -> Replay:
    """Replay `moves` (notation) from `state`; raise IllegalMoveError at the first bad one."""
    final, steps = replay_written(game, state, moves)
    return Replay(final, len(moves), game.is_won(final), tuple(steps))


def load_position(game: Game[Any, Any], text: str | None, number: int | None) -> Any:
    """Return the position from a deal's text or a deal number (exactly one is given)."""
    if (text is None) == (number is None):
        raise SolitaireError("give either a deal file or --deal NUMBER")
    if number is not None:
        try:
            return game.deal(number)
        except ValueError as error:
            raise SolitaireError(f"{game.name}: {error}") from None
    assert text is not None
    return game.parse(text)


def _first_search_move(game: Game[Any, Any], state: Any, steps: Sequence[Any]) -> list[Any]:
    """Return the first steps of `steps` that make up one move of `game.moves(state)`."""
    for move in game.moves(state):
        expanded = game.expand(state, move)
        if list(steps[:len(expanded)]) == expanded:
            return expanded
    return list(steps[:1])
