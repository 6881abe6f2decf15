"""The checker's rules for FreeCell and Seahaven Towers, written again from the rule texts.

The rules (``games/freecell.py``; RULES.md "FreeCell" and "Seahaven Towers"):

- FreeCell: 8 columns dealt 7,7,7,7,6,6,6,6; 4 free cells that hold one card each; 4
  foundations built up by suit from the Ace. A column builds down in alternating colours;
  an empty column takes any card; one card moves at a time. Foundation cards never come
  back. A deal is won when every card is home.
- Seahaven Towers: the same with 10 columns of 5, the last 2 cards in two of the 4 cells,
  building down by suit, and only a King to an empty column.
- The variant options say which: ``cells``, ``columns``, ``ranks`` (cards per suit, the
  King being the highest), ``build`` ("alternate" or "suit"), ``empty`` ("any" or
  "kings") and ``layout`` (how numbered deals are dealt: "microsoft", "seahaven" or
  "seeded").

A move here is one card, as the rules say, never a run: a run moved at once is only a
sequence of these, so a set closed under single cards is closed under runs too.

A position is (columns, cells, foundations): each column a tuple of cards bottom first,
each cell a card or ``-``, and the top rank home of each suit in the order C, D, H, S. A
card is two characters, rank then suit: ``AS``, ``TD``, ``KH``.

LINE is ``C D H S|cells|columns``: the four foundation ranks as numbers, the cells
separated by spaces (``-`` an empty one), then the columns separated by spaces, each
written as its cards run together bottom first (``KSQH5C``), ``-`` an empty one. Under the
reductions ``cells-unordered`` and ``columns-unordered`` the cells and the columns are
written sorted.
"""
from __future__ import annotations

import random
from typing import Any, Iterator

from checker.cards import RANKS, SUITS, rank_of, token
from checker.deals import pysol_order

NAME = "freecell"
REDUCTIONS: dict[str, str] = {
    "cells-unordered": "no rule names a free cell, so positions whose cells hold the same cards "
                       "in another order are one: LINE lists the cells sorted",
    "columns-unordered": "no rule names a column, so positions whose columns are the same in "
                         "another order are one: LINE lists the columns sorted",
    "safe-home": "a card whose foundation wants it goes home at once when every card it could "
                 "still hold in a column is home (proof at settle); this never turns a won deal "
                 "into a lost one",
    "safe-home-wide": "as safe-home, and also when both foundations of the other colour hold "
                      "rank r - 2 and the other suit of its colour r - 3 (proof at settle)",
}

RED = "DH"
PARTNER = {"C": "S", "S": "C", "D": "H", "H": "D"}   # the other suit of the colour
EMPTY = "-"
Card = str
Position = tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...], tuple[int, ...]]
OPTIONS = {"cells": int, "columns": int, "ranks": int, "build": str, "empty": str, "layout": str}


def variant_problem(variant: dict[str, Any]) -> str:
    """Return "" for a variant these rules cover, else what is wrong with it."""
    if set(variant) != set(OPTIONS) or any(type(variant[k]) is not t for k, t in OPTIONS.items()):
        return f"the options must be {', '.join(OPTIONS)}: three numbers, then three words"
    cells, columns, full, layout = variant["cells"], variant["columns"], variant["ranks"] == 13, \
        variant["layout"]
    if not (0 <= cells <= 7 and 1 <= columns <= 10 and 1 <= variant["ranks"] <= 13):
        return "cells must be 0-7, columns 1-10 and ranks 1-13"
    if variant["build"] not in ("alternate", "suit") or variant["empty"] not in ("any", "kings") \
            or layout not in ("microsoft", "seahaven", "seeded"):
        return "build must be alternate or suit, empty any or kings, layout microsoft, " \
               "seahaven or seeded"
    if layout == "microsoft" and not (full and columns == 8) or \
            layout == "seahaven" and not (full and columns == 10 and cells >= 2):
        return "Microsoft's deals are of 52 cards in 8 columns, PySolFC's Seahaven Towers " \
               "deals of 52 cards in 10 columns and 2 cells or more"
    return ""


# -- deals -------------------------------------------------------------------------------

def deal(number: int, variant: dict[str, Any]) -> Position:
    """Return numbered deal `number` (``checker.deals``): Microsoft's (FreeCell), PySolFC's
    (Seahaven Towers: Microsoft's generator up to 32000, the Mersenne Twister above), or
    for small twins the project's seeded deal (Python's ``random.Random(number).shuffle``
    of the deck in suit order C, D, H, S, each suit from the Ace up), dealt one card a
    column in turn."""
    columns, cells = variant["columns"], (EMPTY,) * variant["cells"]
    if variant["layout"] == "microsoft":
        if not 1 <= number <= 2**33 - 1:
            raise ValueError(f"Microsoft deal numbers run from 1 to 8589934591, got {number}")
        cards = pysol_order(number, microsoft=True)
    elif variant["layout"] == "seahaven":
        if number < 1:
            raise ValueError(f"deal numbers start at 1, got {number}")
        cards = pysol_order(number)
        # PySolFC writes an empty cell, then the last 2 cards, read as the parser reads them
        cells, cards = _cells([EMPTY, *cards[50:]], variant["cells"]), cards[:50]
    else:
        cards = [RANKS[r] + s for s in SUITS for r in range(variant["ranks"])]
        random.Random(number).shuffle(cards)
    return (tuple(tuple(cards[i::columns]) for i in range(columns)), tuple(cells), (0, 0, 0, 0))


# -- text --------------------------------------------------------------------------------

_SYMBOLS = {"♣": "C", "♦": "D", "♥": "H", "♠": "S", "♧": "C", "♢": "D", "♡": "H", "♤": "S"}


def _card(text: str) -> Card:
    """Read a card token: ``7H``, ``td``, ``10♦`` (``checker.cards.token``, with suit
    symbols, and ``1`` and ``0`` for the Ace and the ten); raise ValueError."""
    text = text.strip().upper()
    value = {"10": "T", "0": "T", "1": "A"}.get(text[:-1], text[:-1])
    return token(value + _SYMBOLS.get(text[-1:], text[-1:]))


def parse(text: str, variant: dict[str, Any]) -> Position:
    """Read Freecell Solver's board text, the project's format: an optional
    ``Foundations: H-A C-0 D-2 S-0`` line and ``Freecells: 8D - - -`` line (or ``FC:``),
    then one line per column, bottom card first, maybe after a ``:``; ``-`` or nothing is an
    empty column. Blank lines and ``#`` comments say nothing."""
    foundations, cells, columns = [0, 0, 0, 0], [], []
    for line in text.lstrip("\ufeff").splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        label, colon, rest = line.partition(":")
        label = label.strip().lower()
        if colon and label == "foundations":
            for token in rest.split():
                suit, _, top = token.upper().partition("-")
                if suit not in SUITS or top not in ("0", *RANKS):
                    raise ValueError(f"{token!r} is not a foundation")
                foundations[SUITS.index(suit)] = 0 if top == "0" else rank_of(top)
        elif colon and label in ("freecells", "fc"):
            cells += [EMPTY if token == EMPTY else _card(token) for token in rest.split()]
        else:
            rest = line[1:].strip() if line.startswith(":") else line
            columns.append(() if rest == EMPTY else tuple(_card(t) for t in rest.split()))
    if len(columns) != variant["columns"]:
        raise ValueError(f"{len(columns)} columns, the variant has {variant['columns']}")
    position = (tuple(columns), _cells(cells, variant["cells"]), tuple(foundations))
    _check_cards(position, variant)
    return position


def _cells(written: list[Card], count: int) -> tuple[Card, ...]:
    """The `count` cells of a ``Freecells:`` line: in place, empty ones added at the end; where
    more are written than there are cells, the cards only."""
    if len(written) > count:
        written = [card for card in written if card != EMPTY]
    if len(written) > count:
        raise ValueError(f"{len(written)} cards in free cells, the variant has {count}")
    return tuple(written + [EMPTY] * (count - len(written)))


def _check_cards(position: Position, variant: dict[str, Any]) -> None:
    """Raise ValueError unless the position holds each card of the deck once."""
    columns, cells, foundations = position
    seen = [card for column in columns for card in column] + [c for c in cells if c != EMPTY]
    seen += [RANKS[r] + SUITS[s] for s in range(4) for r in range(foundations[s])]
    deck = {RANKS[r] + s for s in SUITS for r in range(variant["ranks"])}
    if len(seen) != len(deck) or set(seen) != deck:
        raise ValueError("the cards are not the deck, each once")


def encode(position: Position, variant: dict[str, Any], reductions: frozenset[str]) -> str:
    """Return LINE (see the module's docstring), canonical under the reductions."""
    columns, cells, foundations = position
    piles = ["".join(column) or EMPTY for column in columns]
    if "columns-unordered" in reductions:
        piles.sort()
    held = sorted(cells) if "cells-unordered" in reductions else cells
    return f"{' '.join(map(str, foundations))}|{' '.join(held)}|{' '.join(piles)}"


def decode(line: str, variant: dict[str, Any]) -> Position:
    """Read LINE; raise ValueError on text that is not a position of the variant."""
    parts = line.split("|")
    if len(parts) != 3:
        raise ValueError("not foundations|cells|columns")
    homes = parts[0].split(" ")
    if len(homes) != 4 or not all(h.isdigit() and int(h) <= variant["ranks"] for h in homes):
        raise ValueError("the foundations are not four ranks")
    cells = tuple(parts[1].split(" ")) if parts[1] else ()
    piles = parts[2].split(" ")
    if len(cells) != variant["cells"] or len(piles) != variant["columns"]:
        raise ValueError("the numbers of cells and columns are not the variant's")
    columns = tuple(() if pile == EMPTY else tuple(pile[i:i + 2] for i in range(0, len(pile), 2))
                    for pile in piles)
    position = (columns, cells, tuple(int(h) for h in homes))
    _check_cards(position, variant)                     # a card misspelt is not in the deck
    return position


# -- moves -------------------------------------------------------------------------------

def _fits(card: Card, under: Card, variant: dict[str, Any]) -> bool:
    """A column builds down: `card` goes on `under` one rank higher, of the other colour
    (alternate) or of the same suit (suit)."""
    if rank_of(under) != rank_of(card) + 1:
        return False
    if variant["build"] == "suit":
        return card[1] == under[1]
    return (card[1] in RED) != (under[1] in RED)


def _take(position: Position, source: int) -> tuple[Card, Position]:
    """Lift the top card of column `source` (0, 1...) or of cell ``-1 - j``."""
    columns, cells, foundations = position
    if source >= 0:
        column = columns[source]
        return column[-1], (columns[:source] + (column[:-1],) + columns[source + 1:], cells,
                            foundations)
    j = -1 - source
    return cells[j], (columns, cells[:j] + (EMPTY,) + cells[j + 1:], foundations)


def moves(position: Position, variant: dict[str, Any],
          reductions: frozenset[str]) -> Iterator[tuple[str, Position]]:
    """Every single-card move the rules allow: a column's top card or a cell's card goes to
    its foundation (the next rank of its suit), to an empty cell (a cell's card too: it only
    changes cell), onto a column's top card it builds on, or to an empty column (under
    ``empty = kings``, only a King). Under ``cells-unordered`` a card goes to the first empty
    cell only and never from cell to cell, and under ``columns-unordered`` to the first empty
    column only: the others give the same LINE (the same position up to the symmetry)."""
    columns, cells, foundations = position
    free = [j for j, card in enumerate(cells) if card == EMPTY]
    empty = [i for i, column in enumerate(columns) if not column]
    if "cells-unordered" in reductions:
        free = free[:1]
    if "columns-unordered" in reductions:
        empty = empty[:1]
    sources = [i for i, column in enumerate(columns) if column]
    sources += [-1 - j for j, card in enumerate(cells) if card != EMPTY]
    for source in sources:
        card, lifted = _take(position, source)
        name = str(source + 1)[-1] if source >= 0 else "abcdefg"[-1 - source]
        rest, held, homes = lifted
        s = SUITS.index(card[1])
        if homes[s] + 1 == rank_of(card):
            yield name + "h", (rest, held, homes[:s] + (homes[s] + 1,) + homes[s + 1:])
        if source >= 0 or "cells-unordered" not in reductions:
            for j in free:
                if j != -1 - source:
                    yield name + "abcdefg"[j], (rest, held[:j] + (card,) + held[j + 1:], homes)
        for t, column in enumerate(rest):
            if t == source:
                continue
            if column and _fits(card, column[-1], variant) or not column and t in empty and (
                    variant["empty"] == "any" or rank_of(card) == variant["ranks"]):
                yield name + str(t + 1)[-1], (rest[:t] + (column + (card,),) + rest[t + 1:],
                                              held, homes)


def _safe(card: Card, foundations: tuple[int, ...], variant: dict[str, Any], wide: bool) -> bool:
    """Whether `card` may go home at once (see settle)."""
    r = rank_of(card)
    if foundations[SUITS.index(card[1])] + 1 != r:
        return False
    if variant["build"] == "suit":
        return True
    other = min(foundations[s] for s in range(4) if (SUITS[s] in RED) != (card[1] in RED))
    partner = foundations[SUITS.index(PARTNER[card[1]])]
    return other >= r - 1 or wide and other >= r - 2 and partner >= r - 3


def settle(position: Position, variant: dict[str, Any], reductions: frozenset[str]) -> Position:
    """Under ``safe-home`` (or ``-wide``), send home every card safe to send, until none is.

    The proof (``games/_freecell_rules.py``, ``_Rules.forced``): a card c home never comes
    back, and its only use in the tableau is to hold a card one rank lower (of the other
    colour, or of its suit building by suit). When those are home, delete c's steps from
    any win and play c home first: every other step keeps its source and target top cards,
    cells and columns only gain room, so the deal is still won. By suit every home move is
    safe; in alternating colours once both foundations of the other colour reach r - 1.
    Under ``safe-home-wide`` also once they reach r - 2 and the other suit of c's colour
    r - 3: a card x the win puts on c (rank r - 1) goes home instead, its r - 2 being home,
    and a card z it puts on x after that (rank r - 2, c's colour) too, its r - 3 being home;
    nothing can be put on z. Their later steps are deleted. Every order of sending ends with
    the same cards home: a card safe to send stays so (foundations only grow) until sent."""
    wide = "safe-home-wide" in reductions
    if "safe-home" not in reductions and not wide:
        return position
    while True:
        columns, cells, foundations = position
        tops = [i for i, column in enumerate(columns) if column and
                _safe(column[-1], foundations, variant, wide)]
        tops += [-1 - j for j, card in enumerate(cells) if card != EMPTY and
                 _safe(card, foundations, variant, wide)]
        if not tops:
            return position
        card, (columns, cells, foundations) = _take(position, tops[0])
        s = SUITS.index(card[1])
        position = (columns, cells, foundations[:s] + (foundations[s] + 1,) + foundations[s + 1:])


def is_won(position: Position, variant: dict[str, Any]) -> bool:
    """Won when every card is home."""
    return all(top == variant["ranks"] for top in position[2])

