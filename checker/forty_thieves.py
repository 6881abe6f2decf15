"""The checker's rules of Forty Thieves (Napoleon at St. Helena), written from the rule text.

The rule text (the game's docstring, ``games/forty_thieves.py``): two decks shuffled
together; 10 columns of 4 cards, all face up; 8 foundations, two per suit, built up by
suit from the Ace; the other 64 cards form the stock. Only the top card of a column
moves, one card at a time, onto the next higher card of its suit or into an empty column
(any card). The stock is drawn one card at a time onto the waste, whose top card may go
to a column or home. Variant ``redeal`` (default true): when the stock is empty the
waste is turned over to make a new stock, as often as the player likes; false: one pass.

Rulings the text leaves open, as the game states them: foundation cards never come back;
turning the waste over is a step of its own (``r``), allowed with the stock empty and the
waste not, and keeps the order the cards were drawn in; numbered deals are PySolFC's.

A position here is a tuple ``(home, waste, stock, columns)``:

- ``home``: per suit of the variant (clubs, diamonds, hearts, spades in that order), the
  pair (lower top, higher top) of its two foundations, 0 for an empty one. The two
  foundations of a suit are alike in every rule (the text names no foundation), so which
  of them holds which cards is not kept: a card goes "home" onto whichever shows its rank
  minus one, and the notation (``wf``, ``4f``) does not say which either;
- ``waste``: its cards, bottom first (the playable card last);
- ``stock``: its cards in drawing order (the next card drawn first);
- ``columns``: one tuple of cards per column, bottom first.

A card is its text, rank then suit: ``AS``, ``TD``, ``KH``.

LINE: ``HOME|WASTE|STOCK|COLUMN|...``: HOME two hexadecimal digits per suit (the pair of
tops), then the cards of each pile written one after another (``3DASKD7D``), an empty pile
as nothing. Under ``column-order`` the columns are written sorted.

Notation (the game's): columns ``1``-``9`` and ``0`` (the 10th), ``w`` the waste, ``f``
home: ``s`` draws, ``r`` turns the waste over, ``w3``, ``wf``, ``4f``, ``27``.
"""
from __future__ import annotations

import random
from typing import Any, Iterator

from checker.cards import RANKS, SUITS, rank_of, run_of, token
from checker.deals import pysol_order

NAME = "forty-thieves"
COLUMN_NAMES = "1234567890"

REDUCTIONS = {
    "column-order": "columns are interchangeable (no rule names a column), so positions "
                    "that differ only by the order of their columns are one: the columns "
                    "are written sorted",
    "safe-home": "a playable card goes home at once when both copies of the rank below "
                 "of its suit are home (an Ace always): proof at settle()",
}

Position = tuple[tuple[tuple[int, int], ...], tuple[str, ...], tuple[str, ...],
                 tuple[tuple[str, ...], ...]]


def variant_problem(variant: dict[str, Any]) -> str:
    """Return "" for the options this module knows: the game's own and its small twins."""
    if set(variant) != {"redeal", "suits", "ranks", "columns", "rows"}:
        return "the options must be redeal, suits, ranks, columns and rows"
    if not isinstance(variant["redeal"], bool):
        return "redeal must be true or false"
    limits = {"suits": (1, 4), "ranks": (1, 13), "columns": (1, 10), "rows": (0, 104)}
    for name, (low, high) in limits.items():
        value = variant[name]
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            return f"{name} must be {low}..{high}"
    if variant["rows"] * variant["columns"] > 2 * variant["suits"] * variant["ranks"]:
        return "the columns take more cards than two decks hold"
    return ""


# -- deals --------------------------------------------------------------------------


def deal(number: int, variant: dict[str, Any]) -> Position:
    """Return numbered deal `number`: PySolFC's for the real game, a seeded shuffle for twins.

    Dealt as PySolFC's ``FortyThieves.startGame``: rows left to right (card i to column
    i mod columns), then one card to the waste; the rest is the stock, in dealing order.
    """
    if number < 1:
        raise ValueError(f"deal numbers start at 1, got {number}")
    if (variant["suits"], variant["ranks"], variant["columns"], variant["rows"]) == (4, 13, 10, 4):
        cards = pysol_order(number, decks=2)                   # the real game's size
    else:
        cards = [r + s for s in SUITS[:variant["suits"]] for r in RANKS[:variant["ranks"]]] * 2
        random.Random(number).shuffle(cards)
    width, dealt = variant["columns"], variant["columns"] * variant["rows"]
    columns = tuple(tuple(cards[i:dealt:width]) for i in range(width))
    home = tuple((0, 0) for _ in range(variant["suits"]))
    return home, tuple(cards[dealt:dealt + 1]), tuple(cards[dealt + 1:]), columns


def parse(text: str, variant: dict[str, Any]) -> Position:
    """Read the project's text of a position: a ``Foundations:`` line of ``suit-top`` tokens
    (two per suit), ``Waste:`` bottom card first, ``Stock:`` (or ``Talon:``) the next card
    drawn first, then one line per column, bottom card first, with an optional leading
    ``:``. Blank lines and lines starting with ``#`` say nothing."""
    tops: dict[str, list[int]] = {s: [] for s in SUITS[:variant["suits"]]}
    waste: list[str] = []
    stock: list[str] = []
    columns: list[tuple[str, ...]] = []
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        label, colon, rest = line.partition(":")
        label = label.strip().lower()
        if colon and label == "foundations":
            for item in rest.split():
                suit, value = item[0].upper(), item[1:].lstrip("-").upper().replace("10", "T")
                if suit not in tops or value != "0" and value not in RANKS:
                    raise ValueError(f"{item!r} is not a foundation of this game")
                tops[suit].append(0 if value == "0" else RANKS.index(value) + 1)
        elif colon and label == "waste":
            waste += [token(text) for text in rest.split()]
        elif colon and label in ("stock", "talon"):
            stock += [token(text) for text in rest.split()]
        elif colon and label:
            raise ValueError(f"unknown line label {label!r}")
        else:
            columns.append(tuple(token(text) for text in line.lstrip(":").split()))
    if len(columns) != variant["columns"]:
        raise ValueError(f"{len(columns)} columns, not {variant['columns']}")
    if any(len(pair) > 2 for pair in tops.values()):
        raise ValueError("more than two foundations of a suit")
    home = tuple(sorted_pair(*(pair + [0, 0])[:2]) for pair in tops.values())
    position = (home, tuple(waste), tuple(stock), tuple(columns))
    if sorted(every_card(position)) != sorted(full_deck(variant)):   # two decks, once each
        raise ValueError("the cards are not two decks of the variant's cards")
    return position


def sorted_pair(first: int, second: int) -> tuple[int, int]:
    """Return a suit's two foundation tops, the lower first."""
    return (first, second) if first <= second else (second, first)


def every_card(position: Position) -> list[str]:
    """Return every card of a position, those home included."""
    home, waste, stock, columns = position
    cards = [RANKS[r - 1] + SUITS[s] for s, pair in enumerate(home) for top in pair
             for r in range(1, top + 1)]
    return cards + list(waste) + list(stock) + [card for column in columns for card in column]


def full_deck(variant: dict[str, Any]) -> list[str]:
    """Return the cards of the variant's two decks, each copy listed."""
    return [r + s for s in SUITS[:variant["suits"]] for r in RANKS[:variant["ranks"]]] * 2


# -- the one-line encoding ----------------------------------------------------------


def encode(position: Position, variant: dict[str, Any], reductions: frozenset[str]) -> str:
    """Return LINE (module docstring); the columns sorted under ``column-order``."""
    home, waste, stock, columns = position
    written = ["".join(column) for column in columns]
    if "column-order" in reductions:
        written.sort()
    tops = "".join(f"{low:x}{high:x}" for low, high in home)
    return "|".join([tops, "".join(waste), "".join(stock), *written])


def decode(line: str, variant: dict[str, Any]) -> Position:
    """Return the position LINE writes; raise ValueError on text that is not one."""
    fields = line.split("|")
    if len(fields) != 3 + variant["columns"]:
        raise ValueError(f"{len(fields)} fields, not {3 + variant['columns']}")
    tops = fields[0]
    if len(tops) != 2 * variant["suits"] or any(d not in "0123456789abcd" for d in tops):
        raise ValueError("the foundations are not two hexadecimal digits a suit")
    home = tuple((int(tops[i], 16), int(tops[i + 1], 16)) for i in range(0, len(tops), 2))
    if any(low > high or high > variant["ranks"] for low, high in home):
        raise ValueError("a pair of foundation tops is out of order or too high")
    piles = []
    for field in fields[1:]:
        piles.append(tuple(map(token, run_of(field))))
    return home, piles[0], piles[1], tuple(piles[2:])


# -- the rules ----------------------------------------------------------------------


def goes_home(home: tuple[tuple[int, int], ...], card: str) -> tuple[tuple[int, int], ...] | None:
    """Return the foundations after `card` goes home, or None when it may not: "built up
    by suit from the Ace", so onto a foundation of its suit showing its rank minus one."""
    suit, r = SUITS.index(card[1]), rank_of(card)
    low, high = home[suit]
    if low == r - 1:
        pair = sorted_pair(r, high)
    elif high == r - 1:
        pair = sorted_pair(low, r)
    else:
        return None
    return home[:suit] + (pair,) + home[suit + 1:]


def fits(card: str, column: tuple[str, ...]) -> bool:
    """Return whether `card` may go onto `column`: "onto the next higher card of its suit
    or into an empty column (any card)"."""
    if not column:
        return True
    under = column[-1]
    return under[1] == card[1] and rank_of(under) == rank_of(card) + 1


def playable(position: Position) -> Iterator[tuple[str, str, Position]]:
    """Yield (source name, card, position with the card lifted) for each card that may
    move: "only the top card of a column moves", and the waste's top card."""
    home, waste, stock, columns = position
    if waste:
        yield "w", waste[-1], (home, waste[:-1], stock, columns)
    for i, column in enumerate(columns):
        if column:
            lifted = columns[:i] + (column[:-1],) + columns[i + 1:]
            yield COLUMN_NAMES[i], column[-1], (home, waste, stock, lifted)


def moves(position: Position, variant: dict[str, Any],
          reductions: frozenset[str]) -> Iterator[tuple[str, Position]]:
    """Yield every legal step (notation, position after it). No reduction leaves one out."""
    home, waste, stock, columns = position
    if stock:                                   # "drawn one card at a time onto the waste"
        yield "s", (home, waste + stock[:1], stock[1:], columns)
    if variant["redeal"] and not stock and waste:   # the waste turned over, drawn in order
        yield "r", (home, (), waste, columns)
    for source, card, (home_, waste_, stock_, lifted) in playable(position):
        after = goes_home(home_, card)
        if after is not None:
            yield source + "f", (after, waste_, stock_, lifted)
        for target, column in enumerate(lifted):
            if COLUMN_NAMES[target] != source and fits(card, column):
                placed = lifted[:target] + (column + (card,),) + lifted[target + 1:]
                yield source + COLUMN_NAMES[target], (home_, waste_, stock_, placed)


def settle(position: Position, variant: dict[str, Any], reductions: frozenset[str]) -> Position:
    """Under ``safe-home``, send home every playable card (the waste's top, a column's top)
    whose suit has both copies of the rank below home, until none is left.

    Proof that this keeps the verdict (the game states it at length at its ``forced``):
    let card c of rank r be playable with both copies of r - 1 of its suit home. In a
    column nothing can ever be laid on c (only those two cards could, and foundation
    cards never come back). Take any winning line from the position and play it with c
    home first, skipping the steps that move c and the draw that turns it up: every
    kept step stays legal (deleting c from its pile changes a pile's top only where c is
    that top; c home only makes the other copy of r, and the r + 1 of its suit, freer to
    go home), and the line still ends with every card home. Settling makes home moves
    only, which lay no card on another, so a card that may go now may still go after the
    others have gone (its suit's lower top stays r - 1 while it is out): the order in
    which they go does not change the position reached.
    """
    if "safe-home" not in reductions:
        return position
    while True:
        for _, card, (home, waste, stock, columns) in playable(position):
            low = home[SUITS.index(card[1])][0]
            if low == rank_of(card) - 1:
                after = goes_home(home, card)
                assert after is not None          # its foundation shows its rank minus one
                position = (after, waste, stock, columns)
                break
        else:
            return position


def is_won(position: Position, variant: dict[str, Any]) -> bool:
    """Won when every card is home: every foundation shows the top rank."""
    return all(pair == (variant["ranks"], variant["ranks"]) for pair in position[0])
