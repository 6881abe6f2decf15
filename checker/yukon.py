"""Yukon, as the checker reads its rules (games/yukon.py quotes them).

Rules: one deck, no stock; 7 columns, the first 1 face-up card, column i (2..7) i - 1
face-down cards under 5 face-up ones. Any face-up card moves, with everything lying on
it, onto a column's top card one rank higher and of the other colour; an empty column
takes only a King (variant ``empty: any``: any card) with what lies on it. Only a
column's top card goes home; the foundations build up by suit from the Ace, and a
foundation's top card may come back onto a column as a single card would go. A face-down
card turns up as soon as it is a column's top card. Won when every card is home.

A position is (columns, hidden, foundations): each column's cards bottom first, how many
at its bottom are face down, each suit's top rank home (C D H S). Cards, their text and
the cards-that-never-leave proof are Klondike's (``checker.klondike``), whose rules for
them are the same.

LINE: ``FFFF COLUMN...``: the foundations' top ranks (``0`` none), then each column as
face-down count ``/`` cards (``2/5D9S5C``, ``0/`` empty).

FACTS: ``{"stuck": "KC QD ..."}``: these cards never leave their places
(``checker.klondike.stuck_fault`` states and checks the argument).
"""
from __future__ import annotations

import random
from typing import Any, Iterator

from checker.deals import pysol_order

from checker.klondike import RANKS, SUITS, card_text, fits, rank, read_card, stuck_fault, suit

NAME = "yukon"
REDUCTIONS: dict[str, str] = {
    "columns-sorted": "columns are interchangeable (no rule names one), so LINE lists "
                      "them sorted",
    "safe-home": "a column's top card goes home at once when no win needs it: an Ace; a "
                 "card of rank r >= 2 when both other-colour foundations hold r - 1 and its "
                 "colour's other suit r - 2 (proofs: games/yukon.py, Yukon.forced)",
}

Position = tuple[tuple[tuple[int, ...], ...], tuple[int, ...], tuple[int, int, int, int]]


def variant_problem(variant: dict[str, Any]) -> str:
    if set(variant) != {"empty", "ranks", "columns"}:
        return "the options must be empty, ranks and columns"
    ranks, width = variant["ranks"], variant["columns"]
    if variant["empty"] not in ("kings", "any") or not isinstance(ranks, int) or \
            not isinstance(width, int) or not (1 <= ranks <= 13 and 1 <= width <= 9) or \
            width * (width + 1) // 2 > 4 * ranks:
        return "empty must be kings or any, ranks 1..13, columns 1..9 (that the deck fills)"
    return ""


def deck(variant: dict[str, Any]) -> list[int]:
    return [s * 13 + r for s in range(4) for r in range(variant["ranks"])]


def deal(number: int, variant: dict[str, Any]) -> Position:
    """PySolFC's deal `number` (``checker.deals``), or a twin's seeded deal."""
    width = variant["columns"]
    columns: list[list[int]] = [[] for _ in range(width)]
    if variant["ranks"] == 13 and width == 7:
        cards = [SUITS.index(card[1]) * 13 + RANKS.index(card[0]) for card in pysol_order(number)]
        dealt = iter(cards)
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
    cards = deck(variant)
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
    """The project's text: an optional ``Foundations:`` line, then one line per column,
    bottom first, face-down cards as ``<KS>``, ``-`` if empty."""
    foundations = [0, 0, 0, 0]
    columns: list[tuple[int, ...]] = []
    hidden: list[int] = []
    for raw in text.splitlines():
        line = raw.strip().lstrip("\ufeff")
        if not line:
            continue
        if line.lower().startswith("foundations:"):
            for token in line.partition(":")[2].split():
                if "-" in token:
                    s, r = token.split("-")
                    foundations[SUITS.index(s.upper())] = 0 if r == "0" else RANKS.index(r.upper()) + 1
                else:
                    card = read_card(token)
                    foundations[suit(card)] = rank(card)
            continue
        tokens = [] if line.lstrip(":").split() == ["-"] else line.lstrip(":").split()
        down = sum(t.startswith("<") for t in tokens)
        if any(t.startswith("<") for t in tokens[down:]):
            raise ValueError(f"face-down cards lie above face-up ones: {line!r}")
        columns.append(tuple(read_card(t.strip("<>")) for t in tokens))
        hidden.append(down)
    position = (tuple(columns), tuple(hidden), (foundations[0], foundations[1], foundations[2],
                                                foundations[3]))
    _check(position, variant)
    return position


def _check(position: Position, variant: dict[str, Any]) -> None:
    columns, hidden, foundations = position
    home = [s * 13 + r for s in range(4) for r in range(foundations[s])]
    if sorted([c for column in columns for c in column] + home) != deck(variant):
        raise ValueError("the cards are not the deck, each once")
    if len(columns) != variant["columns"] or len(hidden) != len(columns):
        raise ValueError("wrong number of columns")
    for column, down in zip(columns, hidden):
        if not 0 <= down <= max(len(column) - 1, 0):
            raise ValueError("a column's top card must be face up")


def encode(position: Position, variant: dict[str, Any], reductions: frozenset[str]) -> str:
    columns, hidden, foundations = position
    cols = [f"{down}/" + "".join(map(card_text, column)) for column, down in zip(columns, hidden)]
    if "columns-sorted" in reductions:
        cols.sort()
    return " ".join(["".join("0" if r == 0 else RANKS[r - 1] for r in foundations), *cols])


def decode(line: str, variant: dict[str, Any]) -> Position:
    found, *cols = line.split(" ")
    if len(found) != 4 or len(cols) != variant["columns"]:
        raise ValueError("not FFFF and one field a column")
    columns, hidden = [], []
    for col in cols:
        down, _, cards = col.partition("/")
        if len(cards) % 2:
            raise ValueError(f"{cards!r} is not a list of cards")
        columns.append(tuple(read_card(cards[i:i + 2]) for i in range(0, len(cards), 2)))
        hidden.append(int(down))
    f = [0 if c == "0" else RANKS.index(c) + 1 for c in found]
    position = (tuple(columns), tuple(hidden), (f[0], f[1], f[2], f[3]))
    _check(position, variant)
    return position


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
                raised = list(foundations)
                raised[suit(card)] += 1
                yield f"{i + 1}f", (left, down, (raised[0], raised[1], raised[2], raised[3]))
            for t, other in enumerate(columns):
                if t != i and _takes(card, other, variant):
                    after = left[:t] + (other + stack,) + left[t + 1:]
                    yield f"{i + 1}-{t + 1}:{card_text(card)}", (after, down, foundations)
    for s in range(4):
        if foundations[s]:
            card = s * 13 + foundations[s] - 1
            lowered = list(foundations)
            lowered[s] -= 1
            for t, other in enumerate(columns):
                if _takes(card, other, variant):
                    after = columns[:t] + (other + (card,),) + columns[t + 1:]
                    yield f"f{t + 1}:{card_text(card)}", (after, hidden, (lowered[0], lowered[1],
                                                                         lowered[2], lowered[3]))


def _safe(card: int, foundations: tuple[int, int, int, int]) -> bool:
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
    while True:
        columns, hidden, foundations = position
        for i, column in enumerate(columns):
            if column and _safe(column[-1], foundations):
                raised = list(foundations)
                raised[suit(column[-1])] += 1
                down = min(hidden[i], max(len(column) - 2, 0))
                position = (columns[:i] + (column[:-1],) + columns[i + 1:],
                            hidden[:i] + (down,) + hidden[i + 1:],
                            (raised[0], raised[1], raised[2], raised[3]))
                break
        else:
            return position


def check_facts(position: Position, variant: dict[str, Any], facts: Any) -> str:
    """"" if the facts prove the position lost, else why not."""
    try:
        if isinstance(facts, dict) and set(facts) == {"stuck"}:
            stuck = {read_card(t) for t in facts["stuck"].split()}
            return stuck_fault(position[0], position[1], variant["ranks"], stuck,
                               variant["empty"] == "any")
    except (TypeError, AttributeError, ValueError) as error:
        return f"unreadable facts ({error})"
    return "the facts are not stuck cards"
