"""Yukon, as the checker reads its rules (games/yukon.py quotes them).

Rules: one deck, no stock; 7 columns, the first 1 face-up card, column i (2..7) i - 1
face-down cards under 5 face-up ones. Any face-up card moves, with everything lying on
it, onto a column's top card one rank higher and of the other colour; an empty column
takes only a King (variant ``empty: any``: any card) with what lies on it. Only a
column's top card goes home; the foundations build up by suit from the Ace, and a
foundation's top card may come back onto a column as a single card would go. A face-down
card turns up as soon as it is a column's top card. Won when every card is home.

A position is (columns, hidden, foundations): each column's cards bottom first, how many
at its bottom are face down, each suit's top rank home (C D H S). Cards are numbered
(``checker.cards``); the columns' text, LINE fields, deck check and static proofs are
Klondike's too (``checker.tableau``), whose rules for them are the same.

LINE: ``FFFF COLUMN...``: the foundations' top ranks (``0`` none), then each column as
face-down count ``/`` cards (``2/5D9S5C``, ``0/`` empty).

FACTS: ``{"stuck": "KC QD ..."}``: these cards never leave their places (or the
never-events of the relaxed game; ``checker.tableau.facts_fault`` states and checks the
argument).
"""
from __future__ import annotations

import random
from typing import Any, Iterator

from checker.cards import card_text, deck, rank, read_card, suit
from checker.deals import pysol_order
from checker.tableau import (Columns, check_cards, facts_fault, fits, line_fields, raised,
                             read_fields, read_text, tops_home)

NAME = "yukon"
REDUCTIONS: dict[str, str] = {
    "columns-sorted": "columns are interchangeable (no rule names one), so LINE lists "
                      "them sorted",
    "safe-home": "a column's top card goes home at once when no win needs it: an Ace; a "
                 "card of rank r >= 2 when both other-colour foundations hold r - 1 and its "
                 "colour's other suit r - 2 (proofs: games/yukon.py, Yukon.forced)",
}

Position = tuple[Columns, tuple[int, ...], tuple[int, ...]]


def variant_problem(variant: dict[str, Any]) -> str:
    if set(variant) != {"empty", "ranks", "columns"}:
        return "the options must be empty, ranks and columns"
    ranks, width = variant["ranks"], variant["columns"]
    if variant["empty"] not in ("kings", "any") or not isinstance(ranks, int) or \
            not isinstance(width, int) or not (1 <= ranks <= 13 and 1 <= width <= 9) or \
            width * (width + 1) // 2 > 4 * ranks:
        return "empty must be kings or any, ranks 1..13, columns 1..9 (that the deck fills)"
    return ""


def deal(number: int, variant: dict[str, Any]) -> Position:
    """PySolFC's deal `number` (``checker.deals``), or a twin's seeded deal."""
    width = variant["columns"]
    columns: list[list[int]] = [[] for _ in range(width)]
    if variant["ranks"] == 13 and width == 7:
        dealt = iter([read_card(card) for card in pysol_order(number)])
        for i in range(1, 7):                   # face-down rows: columns i..6
            for j in range(i, 7):
                columns[j].append(next(dealt))
        for _ in range(4):                      # four face-up rows on columns 2..7
            for j in range(1, 7):
                columns[j].append(next(dealt))
        for j in range(7):                      # a last row on every column
            columns[j].append(next(dealt))
        return tuple(map(tuple, columns)), tuple(range(7)), (0, 0, 0, 0)
    if number < 1:
        raise ValueError("deal numbers start at 1")
    cards = deck(variant["ranks"])
    random.Random(number).shuffle(cards)
    for i in range(width):                      # i face-down cards, then one face up
        for _ in range(i):
            columns[i].append(cards.pop())
    for i in range(width):
        columns[i].append(cards.pop())
    turn = 0
    while cards:                                # the rest round columns 2.. in turn
        columns[1 + turn % (width - 1) if width > 1 else 0].append(cards.pop())
        turn += 1
    return tuple(map(tuple, columns)), tuple(range(width)), (0, 0, 0, 0)


def parse(text: str, variant: dict[str, Any]) -> Position:
    """The project's text (``solitaire show yukon``; ``checker.tableau.read_text``)."""
    foundations, _, columns, hidden = read_text(text, ())
    check_cards(columns, hidden, tuple(foundations), (), variant)
    return columns, hidden, tuple(foundations)


def encode(position: Position, variant: dict[str, Any], reductions: frozenset[str]) -> str:
    columns, hidden, foundations = position
    found, cols = line_fields(foundations, columns, hidden, "columns-sorted" in reductions)
    return " ".join([found, *cols])


def decode(line: str, variant: dict[str, Any]) -> Position:
    found, *cols = line.split(" ")
    if len(cols) != variant["columns"]:
        raise ValueError("not FFFF and one field a column")
    foundations, columns, hidden = read_fields(found, cols)
    check_cards(columns, hidden, foundations, (), variant)
    return columns, hidden, foundations


def is_won(position: Position, variant: dict[str, Any]) -> bool:
    return all(r == variant["ranks"] for r in position[2])


def _takes(card: int, column: tuple[int, ...], variant: dict[str, Any]) -> bool:
    """Whether `column` takes `card` (with what lies on it)."""
    if column:
        return fits(card, column[-1])
    return variant["empty"] == "any" or rank(card) == int(variant["ranks"])


def moves(position: Position, variant: dict[str, Any],
          reductions: frozenset[str]) -> Iterator[tuple[str, Position]]:
    """Every move the rules allow (no reduction prunes any)."""
    columns, hidden, foundations = position
    for i, column in enumerate(columns):
        for j in range(hidden[i], len(column)):
            card, stack = column[j], column[j:]
            left = columns[:i] + (column[:j],) + columns[i + 1:]
            down = hidden[:i] + (min(hidden[i], max(j - 1, 0)),) + hidden[i + 1:]
            if j == len(column) - 1 and foundations[suit(card)] + 1 == rank(card):
                yield f"{i + 1}f", (left, down, raised(foundations, suit(card)))
            for t, other in enumerate(columns):
                if t != i and _takes(card, other, variant):
                    after = left[:t] + (other + stack,) + left[t + 1:]
                    yield f"{i + 1}-{t + 1}:{card_text(card)}", (after, down, foundations)
    for s in range(4):
        if foundations[s]:
            card = s * 13 + foundations[s] - 1
            lowered = raised(foundations, s, -1)
            for t, other in enumerate(columns):
                if _takes(card, other, variant):
                    after = columns[:t] + (other + (card,),) + columns[t + 1:]
                    yield f"f{t + 1}:{card_text(card)}", (after, hidden, lowered)


def _safe(card: int, foundations: tuple[int, ...]) -> bool:
    r, s = rank(card), suit(card)
    if foundations[s] + 1 != r:
        return False
    other = [f for t, f in enumerate(foundations) if (t in (1, 2)) != (s in (1, 2))]
    return r == 1 or min(other) >= r - 1 and foundations[3 - s] >= r - 2


def settle(position: Position, variant: dict[str, Any], reductions: frozenset[str]) -> Position:
    """With "safe-home": send safe top cards home until none is left (the order does not
    matter: a card once safe stays safe until it goes)."""
    if "safe-home" not in reductions:
        return position
    return tops_home(*position, _safe)


def check_facts(position: Position, variant: dict[str, Any], facts: Any) -> str:
    """"" if the facts prove the position lost, else why not."""
    return facts_fault(position[0], position[1], position[2], variant["ranks"], facts,
                       variant["empty"] == "any")
