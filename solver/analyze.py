"""What the commands ask of one position: a verdict, a hint, every move's verdict, a replay.

Silent library functions returning data; the CLI prints. They use a game only through
the Game protocol, so they work for every game in the registry.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Sequence

from solver.game import Game, SolitaireError, Status
from solver.search import Budget, Result, find_strategy
from solver.verify import replay_notation


def solve(game: Game[Any, Any], state: Any, strategy: str | None = None,
          budget: Budget = Budget()) -> Result[Any]:
    """Return the verdict of `strategy` on `state` (a won Result is already verified).

    With no strategy named, the game's ``default_strategy`` (else the portfolio) is used.
    """
    return find_strategy(default_strategy(game, strategy))(game, state, budget)


def default_strategy(game: Game[Any, Any], strategy: str | None = None) -> str:
    """Return `strategy`, or the game's default when it is None."""
    chosen: str = strategy or str(getattr(game, "default_strategy", "portfolio"))
    return chosen


def record(game: Game[Any, Any], deal: Any, result: Result[Any]) -> dict[str, Any]:
    """Return the JSON object of one verdict, with the fields DESIGN.md lists."""
    variant = {f.name: getattr(game, f.name) for f in dataclasses.fields(game)  # type: ignore[arg-type]
               if f.name != "name"}
    out: dict[str, Any] = {
        "game": game.name,
        "variant": variant,
        "deal": deal,
        "status": result.status.value,
        "moves": [game.notation(m) for m in result.moves],
        "length": len(result.moves),
        "optimal": result.optimal,
        "strategy": result.strategy,
        "states": result.stored,
        "expanded": result.expanded,
        "seconds": round(result.seconds, 4),
        "cpu_seconds": round(result.cpu_seconds, 4),
        "peak_memory": result.peak_memory,
    }
    if result.status is Status.UNKNOWN:
        out["stopped_by"] = result.stopped_by
    out.update(result.extra)
    return out


@dataclass(frozen=True)
class MoveVerdict:
    """One legal move from a position and what search says of the position after it."""

    steps: tuple[str, ...]        # the move in notation, as single steps
    status: Status
    result: Result[Any]


def hint(game: Game[Any, Any], state: Any, strategy: str | None = None,
         budget: Budget = Budget()) -> tuple[Result[Any], tuple[str, ...]]:
    """Return the search result from `state` and the first move of its solution as steps.

    The first move is the search move the solution starts with (a whole run in
    FreeCell), written as steps; it is empty unless the result is ``won``.
    """
    result = solve(game, state, strategy, budget)
    if result.status is not Status.WON or not result.moves:
        return result, ()
    first = _first_search_move(game, state, result.moves)
    return result, tuple(game.notation(m) for m in first)


def all_moves(game: Game[Any, Any], state: Any, strategy: str | None = None,
              budget: Budget = Budget()) -> list[MoveVerdict]:
    """Return every legal move from `state` with the verdict of the position after it.

    The position after a move has the game's proven-safe forced moves played, as
    search would; ``won`` moves come first.
    """
    verdicts = []
    for move in game.moves(state):
        steps = tuple(game.notation(m) for m in game.expand(state, move))
        child = game.play(state, move)
        result = solve(game, child, strategy, budget)
        verdicts.append(MoveVerdict(steps, result.status, result))
    order = {Status.WON: 0, Status.UNKNOWN: 1, Status.LOST: 2}
    verdicts.sort(key=lambda v: order[v.status])
    return verdicts


@dataclass(frozen=True)
class Replay:
    """The outcome of replaying a move list that was legal throughout."""

    final: Any
    length: int
    won: bool


def verify_moves(game: Game[Any, Any], state: Any, moves: Sequence[str]) -> Replay:
    """Replay `moves` (notation) from `state`; raise IllegalMoveError at the first bad one."""
    final = replay_notation(game, state, moves)
    return Replay(final, len(moves), game.is_won(final))


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
