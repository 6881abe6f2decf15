"""How a position is drawn: piles of cards in rows, as plain data a page can draw.

A *layout* is what ``Game.drawing(state)`` returns and what the replay page
(``solver.app.replay_page``) draws, knowing no game: a dict

    {"rows": [[pile, pile, ...], ...],    # the board's rows, top to bottom, piles left to right
     "notes": ["Redeals: 1", ...]}        # what the piles do not show (counters), one line each

and a pile is a dict

    {"name": "column 1",                  # what the pile is, shown under it; unique in a layout
     "cards": ["KS", "<7H>", ...],        # bottom card first; <...> is a face-down card
     "fan": "down"}                       # how its cards are spread: down, right, stack or row

A card is its ASCII name (``card_str``: ``TD``, ``7H``; ``JK`` a joker), written ``<TD>``
when it lies face down, as the games' texts write it; any other token (a domino, ``6-2``)
is drawn as a tile bearing its text. ``down`` overlaps the cards downwards (a tableau
column), ``right`` sideways (a waste), ``stack`` shows the top card alone with a count (a
foundation, a stock), ``row`` puts them side by side without overlap (a hand, a row of a
grid). An empty pile is drawn as an empty place.

Every game gets ``text_layout`` of its text by default (each labelled line of its format
a pile, the rest notes); a game whose table has a shape of its own declares ``drawing``
with the builders here (``pile``, ``stack``), so the page draws its columns, cells, grid
or cross as a player lays them out.

>>> text_layout("Foundations: C-0 D-A H-0 S-2\\nFreecells: 7H -\\n: 5C <KD> 4H\\n")["rows"][2]
[{'name': 'line 3', 'cards': ['5C', '<KD>', '4H'], 'fan': 'right'}]
"""
from __future__ import annotations

import re
from typing import Any, Iterable, Sequence

from solver.cards import RANKS, SUITS, card_str

Layout = dict[str, Any]
Pile = dict[str, Any]

FANS = ("down", "right", "stack", "row")
EMPTY = "-"                                   # an empty pile in a game's text

_CARD = re.compile(r"(?:10|[A2-9TJQK])[CDHS]|JK")
_TOKEN = re.compile(r"<?(?:(?:10|[A2-9TJQK])[CDHS]|JK)>?|\d+-\d+")
_FOUNDATION = re.compile(r"([CDHS])-(0|10|[A2-9TJQK])")


def card_token(card: int, face_down: bool = False) -> str:
    """Return a card as a layout writes it: ``7H``, or ``<7H>`` face down.

    >>> card_token(22), card_token(0, face_down=True)
    ('TD', '<AC>')
    """
    name = card_str(card)
    return f"<{name}>" if face_down else name


def pile(name: str, cards: Iterable[int], hidden: int = 0, fan: str = "down") -> Pile:
    """Return a pile of cards (ints, bottom first) whose first `hidden` lie face down.

    >>> pile("column 1", [0, 22, 51], hidden=1)
    {'name': 'column 1', 'cards': ['<AC>', 'TD', 'KS'], 'fan': 'down'}
    """
    assert fan in FANS, fan
    return {"name": name, "cards": [card_token(c, i < hidden) for i, c in enumerate(cards)],
            "fan": fan}


def tokens_pile(name: str, tokens: Sequence[str], fan: str = "row") -> Pile:
    """Return a pile of tokens as they are (tiles, or cards already written)."""
    assert fan in FANS, fan
    return {"name": name, "cards": list(tokens), "fan": fan}


def foundation(suit: int, top: int, name: str | None = None) -> Pile:
    """Return a foundation of one suit holding ranks 1..`top` (Ace up), drawn as a stack.

    >>> foundation(2, 3)["cards"]
    ['AH', '2H', '3H']
    """
    return pile(name or f"foundation {SUITS[suit]}", [suit * 13 + r for r in range(top)],
                fan="stack")


def text_layout(text: str) -> Layout:
    """Return the default layout of a position's text: each line holding cards (or tiles)
    a pile of its own row, fanned to the right, named by its label; every other line a note.

    A ``Foundations:`` line (``C-5 D-0 ...``) becomes one stacked pile a suit. Comments
    (``#``) are left out.
    """
    rows: list[list[Pile]] = []
    notes: list[str] = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        label, sep, value = line.partition(":")
        if not sep:
            label, value = "", line
        label, words = label.strip(), value.split()
        if words and all(_FOUNDATION.fullmatch(w) for w in words):
            tops = [w.split("-") for w in words]
            rows.append([foundation(SUITS.index(s), _top(top), f"{label.lower() or 'foundation'} {s}")
                         for s, top in tops])
        elif words and all(w == EMPTY or _TOKEN.fullmatch(w) for w in words):
            cards = [w for w in words if w != EMPTY]
            rows.append([tokens_pile(label.lower() or f"line {number}", cards, "right")])
        else:
            notes.append(line)
    return {"rows": rows, "notes": notes}


def _top(rank: str) -> int:
    """Return the rank a foundation token names (``0`` for none, ``10`` or ``T`` ten)."""
    return 0 if rank == "0" else 10 if rank == "10" else RANKS.index(rank) + 1


def layout_cards(layout: Layout) -> list[str]:
    """Return every token of a layout, face-down marks removed, row by row, pile by pile.

    >>> layout_cards({"rows": [[pile("a", [0, 1], hidden=1)]], "notes": []})
    ['AC', '2C']
    """
    return [token.strip("<>") for row in layout["rows"] for p in row for token in p["cards"]]


def is_card(token: str) -> bool:
    """Return whether a token is a card (face up or down) rather than another tile.

    >>> is_card("<TD>"), is_card("JK"), is_card("6-2")
    (True, True, False)
    """
    return _CARD.fullmatch(token.strip("<>")) is not None
