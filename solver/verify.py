"""Replay a list of steps through a game's rules, independently of any search.

This module shares no code with ``solver.search``: it checks each step with the game's
``illegal_reason`` (its rule check, not its move generator) and plays it with ``play``.
Every solution a strategy returns passes through ``check_solution`` before it is shown.
"""
from __future__ import annotations

from typing import Any, Iterable, Sequence

from solver.game import Game, IllegalMoveError


def replay(game: Game[Any, Any], start: Any, steps: Iterable[Any]) -> Any:
    """Return the position after playing `steps` from `start`; raise IllegalMoveError."""
    state = start
    illegal_reason, play = game.illegal_reason, game.play   # looked up once, not per step
    for index, step in enumerate(steps):
        reason = illegal_reason(state, step)
        if reason:
            raise IllegalMoveError(index, game.notation(step), reason)
        state = play(state, step)
    return state


def replay_notation(game: Game[Any, Any], start: Any, texts: Sequence[str]) -> Any:
    """Return the position after the moves written `texts`; raise at the first bad one."""
    return replay_written(game, start, texts)[0]


def replay_written(game: Game[Any, Any], start: Any,
                   texts: Sequence[str]) -> tuple[Any, list[Any]]:
    """Return the position after the moves written `texts` and those moves as steps;
    raise IllegalMoveError at the first that does not parse or is not legal."""
    from solver.game import InvalidMoveError

    state = start
    steps = []
    for index, text in enumerate(texts):
        try:
            step = game.parse_move(state, text)
        except InvalidMoveError as error:
            raise IllegalMoveError(index, text, str(error)) from None
        reason = game.illegal_reason(state, step)
        if reason:
            raise IllegalMoveError(index, text, reason)
        state = game.play(state, step)
        steps.append(step)
    return state, steps


def check_solution(game: Game[Any, Any], start: Any, steps: Sequence[Any]) -> None:
    """Assert that `steps` are legal from `start` and end in a won position.

    A failure here is a bug in a game or a strategy, never the user's mistake, so it
    is an AssertionError with the move index, not a SolitaireError.
    """
    try:
        final = replay(game, start, steps)
    except IllegalMoveError as error:
        raise AssertionError(f"{game.name}: solution failed replay at {error}") from error
    if not game.is_won(final):
        raise AssertionError(f"{game.name}: solution of {len(steps)} steps does not end in a win")
