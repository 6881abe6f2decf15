"""The winnability strip of a solution: along its positions, every move and what it leads to.

At each position a solution passes through, every legal move (the game's ``legal_moves``
where ``moves`` leaves some out) leads to a position that is still winnable, lost, or,
when a search could not tell within its budget, unknown. A position is *critical* when
it offers a choice (two moves or more) and exactly one move keeps the game winnable while
every other one is proven lost; with an unknown move among them nothing is claimed.

Two sources give a strip: the state graph of a small space, exactly
(``solver.app.graph.StateGraph.strip``), and, for a space too large for that, search
(``by_search``): the deal's solution, then every move's position searched under an equal
share of a time budget, as ``hint --all`` does. Silent library functions: the CLI prints.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Sequence

from solver.app.analyze import all_moves, listed_moves, solve
from solver.game import Game, Status
from solver.search import Budget

WINNABLE, LOST, UNKNOWN = "winnable", "lost", "unknown"


@dataclass(frozen=True)
class Choice:
    """One move at a position of a solution: its notation, and what it leads to."""

    move: str
    status: str               # winnable (a win is reachable after it), lost or unknown
    taken: bool               # the solution plays it

    @property
    def keeps(self) -> bool:
        """The position it reaches is still winnable."""
        return self.status == WINNABLE


@dataclass(frozen=True)
class StripStep:
    """A position along a solution and every move from it."""

    index: int                # steps of the solution played before this position
    choices: tuple[Choice, ...]

    @property
    def critical(self) -> bool:
        """There is a choice here, and one move keeps the game winnable while every other
        one is proven lost."""
        keeping = sum(choice.keeps for choice in self.choices)
        lost = sum(choice.status == LOST for choice in self.choices)
        return len(self.choices) > 1 and keeping == 1 and lost == len(self.choices) - 1


@dataclass(frozen=True)
class Strip:
    """The winnability strip of a solution: one step per move of it (none: no solution)."""

    steps: tuple[StripStep, ...]
    status: Status = Status.WON       # the deal's verdict (unknown: no solution was found)

    @property
    def critical(self) -> list[int]:
        """The indexes of the critical steps."""
        return [step.index for step in self.steps if step.critical]


def by_search(game: Game[Any, Any], state: Any, budget: Budget,
              on_position: Callable[[int, int], None] | None = None) -> Strip:
    """Return the strip of a solution the default strategy finds from `state`.

    `budget` is for the whole call: a third of it for the solution, the rest shared
    equally among the positions along it (and there among their moves), each part
    started when its turn comes, so that time a position leaves over goes to the next.
    `on_position(done, total)` is called after each position (for a progress line).
    """
    budget = budget.start()
    result = solve(game, state, None, budget.split(3))
    if result.status is not Status.WON:
        return Strip((), result.status)
    moves = _search_moves(game, state, list(result.moves))
    steps = []
    index = 0
    for number, move in enumerate(moves):
        taken = tuple(game.notation(m) for m in game.expand(state, move))
        verdicts = all_moves(game, state, None, budget.split(len(moves) - number))
        choices = []
        for verdict in verdicts:
            status = WINNABLE if verdict.wins_now or verdict.status is Status.WON else \
                LOST if verdict.status is Status.LOST else UNKNOWN
            choices.append(Choice(" ".join(verdict.steps), status, verdict.steps == taken))
        steps.append(StripStep(index, tuple(choices)))
        index += len(taken)
        state = game.play(state, move)
        if on_position is not None:
            on_position(number + 1, len(moves))
    return Strip(tuple(steps))


def _search_moves(game: Game[Any, Any], state: Any, steps: Sequence[Any]) -> list[Any]:
    """Return a solution's steps as the search moves a player chooses among: at each
    position the legal move whose steps the solution plays next (a step of its own when
    none matches, as a move of several steps the game lists in no other way)."""
    moves = []
    at = 0
    while at < len(steps):
        chosen = None
        for move in listed_moves(game, state):
            expanded = game.expand(state, move)
            if list(steps[at:at + len(expanded)]) == expanded and \
                    (chosen is None or len(expanded) > len(game.expand(state, chosen))):
                chosen = move
        move = chosen if chosen is not None else steps[at]
        moves.append(move)
        at += len(game.expand(state, move)) if chosen is not None else 1
        state = game.play(state, move)
    return moves
