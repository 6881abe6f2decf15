"""The checker's rules for the test-only toy game Ladder (``tests/toy_game.py``), written
again from its rules as a checker module is (``checker/``): the tests of the generic
closure check and of the certificate file use it, so they run whatever games the checker
covers.

A position is (home, columns): the highest rank home and each column's cards, bottom
first, as strings of digits. LINE is ``home|column|column...``.
"""
from __future__ import annotations

import random
from typing import Any, Iterator

NAME = "ladder"
REDUCTIONS = {"column-order": "columns are interchangeable (no rule names a column), so "
                              "positions that differ by their order are one"}
Position = tuple[int, tuple[str, ...]]


def variant_problem(variant: dict[str, Any]) -> str:
    ranks, columns = variant.get("ranks"), variant.get("columns")
    ok = isinstance(ranks, int) and 1 <= ranks <= 9 and isinstance(columns, int) and 1 <= columns <= 8
    return "" if ok else "ranks must be 1..9 and columns 1..8"


def deal(number: int, variant: dict[str, Any]) -> Position:
    cards = [str(rank) for rank in range(1, variant["ranks"] + 1)]
    random.Random(number).shuffle(cards)
    return 0, tuple("".join(cards[i::variant["columns"]]) for i in range(variant["columns"]))


def parse(text: str, variant: dict[str, Any]) -> Position:
    lines = text.splitlines()
    if not lines or not lines[0].startswith("Home: "):
        raise ValueError("the first line must be 'Home: N'")
    columns = lines[1:1 + variant["columns"]]
    columns += [""] * (variant["columns"] - len(columns))     # empty last columns
    return int(lines[0][6:]), tuple("".join(line.split()) for line in columns)


def encode(position: Position, variant: dict[str, Any], reductions: frozenset[str]) -> str:
    home, columns = position
    return "|".join([str(home), *(sorted(columns) if "column-order" in reductions else columns)])


def decode(line: str, variant: dict[str, Any]) -> Position:
    home, *columns = line.split("|")
    if not home.isdigit() or len(columns) != variant["columns"] or \
            not all(column.isdigit() or not column for column in columns):
        raise ValueError("not home|column|... of digits")
    return int(home), tuple(columns)


def moves(position: Position, variant: dict[str, Any],
          reductions: frozenset[str]) -> Iterator[tuple[str, Position]]:
    """A column's top card goes home when it is the next rank, or onto another column's
    top card one rank higher, or into an empty column."""
    home, columns = position
    for source, column in enumerate(columns):
        if not column:
            continue
        card, rest = int(column[-1]), column[:-1]
        if card == home + 1:
            yield f"{source + 1}h", (card, columns[:source] + (rest,) + columns[source + 1:])
        for target, other in enumerate(columns):
            if target != source and (not other or int(other[-1]) == card + 1):
                after = list(columns)
                after[source], after[target] = rest, other + column[-1]
                yield f"{source + 1}{target + 1}", (home, tuple(after))


def settle(position: Position, variant: dict[str, Any], reductions: frozenset[str]) -> Position:
    return position


def is_won(position: Position, variant: dict[str, Any]) -> bool:
    return position[0] == variant["ranks"]


def score(position: Position, variant: dict[str, Any]) -> int | None:
    """The scored Ladder's score (``tests/test_certificates_best.py``): the cards home,
    where no move is left (the play is over); None while a move is left."""
    return None if next(moves(position, variant, frozenset()), None) else position[0]
