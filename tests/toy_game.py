"""Ladder: a test-only toy game, the least a game needs to meet the contract.

It is what CONTRIBUTING's "Adding a game" asks for and nothing more: a frozen dataclass
subclassing ``solver.game.Game``, with every optional hook left at its default. The
tests use it to show that the engine, the verifier and the batch runner take a new game
without any list being edited (it is not in ``games/``, so the registry does not list it).

Rules: the cards 1..``ranks`` of one suit are shuffled (seeded by the deal number) and
dealt round-robin into ``columns`` columns. A column's top card goes home when it is the
next rank up, or onto another column's top card one rank higher; an empty column takes
any card. Won when every card is home.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, ClassVar, NamedTuple

from solver.game import DealChecker, DealProblem, Game, InvalidMoveError, quote
from solver.text import read_number

HOME = 9                                  # a move's target: the foundation


class State(NamedTuple):
    columns: tuple[bytes, ...]            # bottom card first
    home: int                             # the highest rank home (0: none)


class Move(NamedTuple):
    source: int
    target: int                           # a column, or HOME


@dataclass(frozen=True)
class Ladder(Game[State, Move]):
    """Ladder; the fields are its variant options."""

    ranks: int = 6
    columns: int = 3

    name: ClassVar[str] = "ladder"
    aliases: ClassVar[tuple[str, ...]] = ()
    summary: ClassVar[str] = "one suit in a few columns; build down, send home in order"
    variants: ClassVar[dict[str, str]] = {"ranks": "cards, 1-9", "columns": "columns, 1-8"}
    presets: ClassVar[dict[str, dict[str, Any]]] = {}

    def __post_init__(self) -> None:
        if not 1 <= self.ranks <= 9 or not 1 <= self.columns <= 8:
            raise ValueError("ranks must be 1..9 and columns 1..8")

    def deal(self, number: int) -> State:
        cards = list(range(1, self.ranks + 1))
        random.Random(number).shuffle(cards)
        return State(tuple(bytes(cards[i::self.columns]) for i in range(self.columns)), 0)

    def parse(self, text: str) -> State:
        check = DealChecker(self.name)
        lines = [line.split() for line in text.strip().splitlines()]
        home = read_number(lines[0][1]) if lines and len(lines[0]) == 2 \
            and lines[0][0] == "Home:" else None
        if home is None:
            check.add(DealProblem.BAD_LINE, "the first line must be 'Home: N'", line=1)
            check.raise_if_any()
        columns = []
        for number, line in enumerate(lines[1:], 2):
            cards = [read_number(token) for token in line]
            if any(card is None or card > 255 for card in cards):
                check.add(DealProblem.UNREADABLE_CARD, f"not a card in {quote(' '.join(line))}",
                          line=number)
            columns.append(bytes(card for card in cards if card is not None and card <= 255))
        if len(columns) != self.columns:
            check.add(DealProblem.WRONG_PILE_COUNT, f"{len(columns)} columns, not {self.columns}")
        held = sorted(card for column in columns for card in column)
        if held != list(range((home or 0) + 1, self.ranks + 1)):
            check.add(DealProblem.MISSING_CARD, f"cards {quote(str(held), 40)}")
        check.raise_if_any()
        return State(tuple(columns), home or 0)

    def format(self, state: State) -> str:
        return "\n".join([f"Home: {state.home}"] + [" ".join(map(str, c)) for c in state.columns]) + "\n"

    def moves(self, state: State) -> list[Move]:
        found = []
        for source, column in enumerate(state.columns):
            if column:
                found += [Move(source, target) for target in [HOME, *range(self.columns)]
                          if not self.illegal_reason(state, Move(source, target))]
        return found

    def play(self, state: State, move: Move) -> State:
        columns = list(state.columns)
        card = columns[move.source][-1]
        columns[move.source] = columns[move.source][:-1]
        if move.target == HOME:
            return State(tuple(columns), card)
        columns[move.target] += bytes([card])
        return State(tuple(columns), state.home)

    def is_won(self, state: State) -> bool:
        return state.home == self.ranks

    def key(self, state: State) -> bytes:
        """Columns are interchangeable: sorted."""
        return bytes([state.home]) + b"|".join(sorted(state.columns))

    def heuristic(self, state: State) -> int:
        return self.ranks - state.home

    def lower_bound(self, state: State) -> int:
        return self.ranks - state.home

    def forced(self, state: State) -> list[Move]:
        return []

    def expand(self, state: State, move: Move) -> list[Move]:
        return [move]

    def notation(self, move: Move) -> str:
        return f"{move.source + 1}{'h' if move.target == HOME else move.target + 1}"

    def parse_move(self, state: State, text: str) -> Move:
        if len(text) != 2 or text[0] not in "12345678" or text[1] not in "12345678h":
            raise InvalidMoveError(f"{quote(text)} is not a Ladder move like 1h or 23")
        return Move(int(text[0]) - 1, HOME if text[1] == "h" else int(text[1]) - 1)

    def illegal_reason(self, state: State, move: Move) -> str:
        if not 0 <= move.source < self.columns or not state.columns[move.source]:
            return "no card there"
        card = state.columns[move.source][-1]
        if move.target == HOME:
            return "" if card == state.home + 1 else f"{card} does not go home yet"
        if move.target == move.source or not 0 <= move.target < self.columns:
            return "no such column"
        target = state.columns[move.target]
        return "" if not target or target[-1] == card + 1 else f"{card} does not go on {target[-1]}"

    def describe(self, state: State, step: Move) -> str:
        card = state.columns[step.source][-1]
        where = "home" if step.target == HOME else f"to column {step.target + 1}"
        return f"{card} from column {step.source + 1} {where}"


GAME = Ladder()
