"""The checker's rules for Crescent (La Demi-Lune), its redeals and variants, written again
from the rule text rather than taken from ``games/crescent.py``:

    Two decks shuffled together. One King and one Ace of each suit start the eight
    foundations: the Kings' foundations are built down by suit (K, Q, ..., A), the Aces'
    up by suit (A, 2, ..., K). The other 96 cards are dealt to 16 piles of 6. Only a
    pile's top card moves, one card at a time: to a foundation, or onto the top card of
    another pile one rank above or below it in the same suit, King and Ace being adjacent
    ("round the corner"). An empty pile stays empty: nothing may go into it. When the two
    foundations of a suit meet in sequence (the King foundation's top is one rank above
    the Ace foundation's top), the top card of either may move onto the other, but never
    a base card. The special redeal moves every pile's bottom card to its top, keeping
    the order of the others; it may be made at any time, 3 times in a game. The game is
    won when all 104 cards are on the foundations.

Variant options (the game's own, all of them): ``redeals`` (special redeals allowed, 0..9;
Crescent Four is 4); ``worry_back`` (a foundation's top card may come back onto a pile,
onto a top card one rank away in its suit, round the corner; never into an empty pile);
``bases_move`` (the base Aces and Kings may leave their foundations like other cards; an
empty Ace foundation then takes only an Ace, an empty King foundation only a King);
``open`` (every card face up: the checker knows every card anyway, so it changes nothing
here); ``suits``, ``ranks``, ``piles`` (small twins: fewer suits, ranks 1..ranks with the
top rank playing the King, fewer piles).

A position is (piles, up, down, redeals): each pile a tuple of cards (suit, rank), bottom
card first; per suit the top rank of the Ace foundation (0: empty) and of the King
foundation (ranks + 1: empty); the special redeals made. LINE is
``ACES/KINGS/REDEALS/PILE/PILE/...``: a rank letter per suit for each foundation row (``0``
for an empty one), then each pile's cards bottom first (``3DQC``), ``-`` for an empty pile.
"""
from __future__ import annotations

import random
import re
from collections import Counter
from typing import Any, Iterator

NAME = "crescent"
# Why pile-order keeps the verdict: renumbering the piles of a position renumbers the
# piles of each position a step leads to, and nothing else (a step's legality reads only
# the top cards and the foundations; a pile number only says where a card goes; the
# redeal turns each pile by itself); a win, every pile empty, stays a win. So the
# positions reachable from two renumberings of one position are the same up to
# renumbering, and one is won exactly when the other is.
REDUCTIONS = {
    "pile-order": "piles are interchangeable: no rule names a pile (a card goes onto any "
                  "pile whose top fits, and a redeal turns every pile alike), so positions "
                  "that differ only by the order of their piles are one (LINE sorts them)",
}

RANKS = "A23456789TJQK"
SUITS = "CDHS"
OPTIONS = ("redeals", "worry_back", "bases_move", "open", "suits", "ranks", "piles")

Card = tuple[int, int]                       # (suit 0..3 in CDHS order, rank 1..ranks)
Position = tuple[tuple[tuple[Card, ...], ...], tuple[int, ...], tuple[int, ...], int]


def variant_problem(variant: dict[str, Any]) -> str:
    """Return "" when the checker knows the variant, else why not."""
    unknown = sorted(set(variant) - set(OPTIONS))
    if unknown:
        return f"the checker knows no option {unknown[0]!r}"
    limits = {"redeals": (0, 9), "suits": (1, 4), "ranks": (3, 13), "piles": (1, 16)}
    for name, (low, high) in limits.items():
        value = variant.get(name)
        if type(value) is not int or not low <= value <= high:
            return f"{name} must be a whole number {low}..{high}"
    for name in ("worry_back", "bases_move", "open"):
        if type(variant.get(name)) is not bool:
            return f"{name} must be true or false"
    return ""


# -- deals ------------------------------------------------------------------------------

def deal(number: int, variant: dict[str, Any]) -> Position:
    """Numbered deal `number`: PySolFC's (game 647) for the full game, else a small twin's
    (the game's two decks shuffled by ``random.Random(number)``, the first copy of each
    base taken out). Card i of the dealing order goes to pile i % piles."""
    if number < 1:
        raise ValueError(f"deal numbers start at 1, got {number}")
    suits, ranks, count = variant["suits"], variant["ranks"], variant["piles"]
    if (suits, ranks, count) == (4, 13, 16):
        cards = _pysol_order(number)
    else:
        cards = [(s, r) for s in range(suits) for r in range(1, ranks + 1)] * 2
        random.Random(number).shuffle(cards)
        for s in range(suits):
            cards.remove((s, 1))
            cards.remove((s, ranks))
    piles = tuple(tuple(cards[i::count]) for i in range(count))
    return piles, (1,) * suits, (ranks,) * suits, 0


def _pysol_order(number: int) -> list[Card]:
    """PySolFC's two-deck deal: the 104 cards in its order (deck by deck, suits clubs,
    spades, hearts, diamonds, Ace to King) shuffled from the last card down, each swapped
    with a card at or below it: for numbers up to 32000 drawn by Microsoft's generator,
    above by Python's Mersenne Twister seeded with the number. The talon deals from its
    end; the first deck's Aces and Kings go to the foundations, the rest to the piles."""
    talon = [(deck, "CSHD"[s], r) for deck in range(2) for s in range(4) for r in range(1, 14)]
    twister = random.Random(number) if number > 32000 else None
    seed = number
    for n in range(len(talon) - 1, 0, -1):
        if twister is None:
            seed = (seed * 214013 + 2531011) & 0x1FFFFFFFF
            j = ((seed >> 16) & 0x7FFF) % (n + 1)
        else:
            j = int(twister.random() * (n + 1))
        talon[n], talon[j] = talon[j], talon[n]
    return [(SUITS.index(suit), rank) for deck, suit, rank in reversed(talon)
            if not (deck == 0 and rank in (1, 13))]


# -- text -------------------------------------------------------------------------------

_FOUNDATION = re.compile(r"([CDHS])-?(0|10|[A2-9TJQK])|(10|[A2-9TJQK])([CDHS])", re.IGNORECASE)
_LABEL = re.compile(r"([A-Za-z]+):(\s|$)")


def _rank(text: str) -> int:
    return 10 if text == "10" else 0 if text == "0" else RANKS.index(text.upper()) + 1


def _card(token: str) -> Card:
    if len(token) > 2 and token[0] == "<" and token[-1] == ">":
        token = token[1:-1]                  # face down: every card is known here
    found = re.fullmatch(r"(10|[A2-9TJQK])([CDHS])", token, re.IGNORECASE)
    if not found:
        raise ValueError(f"unreadable card {token!r}")
    return SUITS.index(found.group(2).upper()), _rank(found.group(1))


def parse(text: str, variant: dict[str, Any]) -> Position:
    """Read the project's text: ``Aces:`` (each suit's Ace foundation by its top,
    ``C-5``), ``Kings:`` (``C-J``: K..J; ``C-0`` empty), ``Redeals:`` (made so far), each
    line optional (a fresh deal's), then a line per pile, bottom card first, ``-`` for an
    empty pile. ``#`` lines are comments; face-down markers ``<KS>`` are dropped."""
    suits, ranks = variant["suits"], variant["ranks"]
    up, down, redeals = [1] * suits, [ranks] * suits, 0
    piles: list[tuple[Card, ...]] = []
    for line in text.lstrip("\ufeff").splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        label = _LABEL.match(line)
        if label is None:
            tokens = line.lstrip(":").split()
            piles.append(() if tokens == ["-"] else tuple(_card(t) for t in tokens))
            continue
        name, rest = label.group(1).lower(), line[label.end():].split()
        if name == "redeals" and len(rest) == 1 and rest[0].isascii() and rest[0].isdigit():
            redeals = int(rest[0])
        elif name in ("aces", "kings"):
            tops = {}                        # suit: top rank, each suit of the game once
            for token in rest:
                found = _FOUNDATION.fullmatch(token)
                if not found:
                    raise ValueError(f"unreadable foundation {token!r}")
                suit = SUITS.index((found.group(1) or found.group(4)).upper())
                tops[suit] = _rank(found.group(2) or found.group(3))
            if sorted(tops) != list(range(suits)) or len(rest) != suits:
                raise ValueError(f"the {name} line must name each of the {suits} suits once")
            for suit, top in tops.items():
                if name == "aces":
                    up[suit] = top
                else:
                    down[suit] = top or ranks + 1
        else:
            raise ValueError(f"unreadable line {line!r}")
    position = (tuple(piles), tuple(up), tuple(down), redeals)
    problem = _problem(position, variant)
    if problem:
        raise ValueError(problem)
    return position


def _problem(position: Position, variant: dict[str, Any]) -> str:
    """Whether a position holds the game's cards: each of them twice, counting the piles
    and the foundations (an Ace foundation topped by r holds A..r, a King foundation
    topped by r holds r..the top rank)."""
    piles, up, down, redeals = position
    suits, ranks = variant["suits"], variant["ranks"]
    if len(piles) != variant["piles"] or len(up) != suits or len(down) != suits:
        return f"{len(piles)} piles, {variant['piles']} expected, and {suits} suits"
    if not 0 <= redeals <= variant["redeals"]:
        return f"{redeals} redeals made, at most {variant['redeals']} allowed"
    held = [card for pile in piles for card in pile]
    for s in range(suits):
        if not 0 <= up[s] <= ranks or not 1 <= down[s] <= ranks + 1:
            return "a foundation's top rank is out of range"
        held += [(s, r) for r in range(1, up[s] + 1)] + [(s, r) for r in range(down[s], ranks + 1)]
    copies = Counter(held)
    for s in range(suits):
        for r in range(1, ranks + 1):
            if copies[s, r] != 2:
                return f"{copies[s, r]} copies of {RANKS[r - 1]}{SUITS[s]}, 2 expected"
    if len(held) != 2 * suits * ranks:
        return "cards of another suit or rank"
    return ""


def encode(position: Position, variant: dict[str, Any], reductions: frozenset[str]) -> str:
    """LINE: ``ACES/KINGS/REDEALS/PILE/...``, the piles sorted under ``pile-order``."""
    piles, up, down, redeals = position
    ranks = variant["ranks"]
    texts = ["".join(RANKS[r - 1] + SUITS[s] for s, r in pile) or "-" for pile in piles]
    if "pile-order" in reductions:
        texts.sort()
    aces = "".join(RANKS[a - 1] if a else "0" for a in up)
    kings = "".join(RANKS[k - 1] if k <= ranks else "0" for k in down)
    return "/".join([aces, kings, str(redeals), *texts])


def decode(line: str, variant: dict[str, Any]) -> Position:
    """The position a LINE writes; ValueError if it is none of this variant's."""
    fields = line.split("/")
    if len(fields) != 3 + variant["piles"] or not fields[2].isdigit():
        raise ValueError("not ACES/KINGS/REDEALS/PILE/... with a field per pile")
    ranks = variant["ranks"]
    up = tuple(0 if c == "0" else RANKS.index(c) + 1 for c in fields[0] if c in "0" + RANKS)
    down = tuple(ranks + 1 if c == "0" else RANKS.index(c) + 1 for c in fields[1]
                 if c in "0" + RANKS)
    if len(up) != len(fields[0]) or len(down) != len(fields[1]):
        raise ValueError("a foundation row holds a character that is no rank")
    piles = tuple(() if text == "-" else tuple(_card(text[i:i + 2]) for i in range(0, len(text), 2))
                  for text in fields[3:])
    position = (piles, up, down, int(fields[2]))
    problem = _problem(position, variant)
    if problem:
        raise ValueError(problem)
    return position


# -- the rules --------------------------------------------------------------------------

def _next_to(card: Card, other: Card, ranks: int) -> bool:
    """One rank apart in the same suit, round the corner (the top rank and the Ace)."""
    return card[0] == other[0] and (card[1] - other[1]) % ranks in (1, ranks - 1)


def _with(items: tuple[Any, ...], i: int, item: Any) -> tuple[Any, ...]:
    """`items` with item `i` replaced."""
    return items[:i] + (item,) + items[i + 1:]


def moves(position: Position, variant: dict[str, Any],
          reductions: frozenset[str]) -> Iterator[tuple[str, Position]]:
    """Every legal step, in the game's notation: piles ``1``..; ``a``/``k`` the moving
    card's Ace/King foundation as a target; ``aH``/``kH`` a foundation as a source;
    ``r`` the special redeal. No reduction leaves a move out."""
    piles, up, down, redeals = position
    ranks = variant["ranks"]
    low = 0 if variant["bases_move"] else 1       # a foundation keeps at least its base
    # The cards that may move: a pile's top card; a foundation's top card, not its base
    # unless bases_move. Each as (name, card, where from, the piles and foundations
    # without it).
    lifted: list[tuple[str, Card, int | str, Position]] = []
    for i, pile in enumerate(piles):
        if pile:
            lifted.append((str(i + 1), pile[-1], i,
                           (_with(piles, i, pile[:-1]), up, down, redeals)))
    for s in range(variant["suits"]):
        if up[s] > low:
            lifted.append((f"a{SUITS[s]}", (s, up[s]), "a",
                           (piles, _with(up, s, up[s] - 1), down, redeals)))
        if down[s] <= ranks - low:
            lifted.append((f"k{SUITS[s]}", (s, down[s]), "k",
                           (piles, up, _with(down, s, down[s] + 1), redeals)))
    for name, card, source, (rest, ups, downs, _) in lifted:
        s, r = card
        # Home: the Ace foundation takes the next rank up of its suit, the King foundation
        # the next rank down. A foundation's card fits the other one exactly when the two
        # meet in sequence (the King foundation's top one rank above the Ace foundation's).
        if source != "a" and ups[s] + 1 == r:
            yield f"{name}-a", (rest, _with(ups, s, r), downs, redeals)
        if source != "k" and downs[s] - 1 == r:
            yield f"{name}-k", (rest, ups, _with(downs, s, r), redeals)
        # Onto another pile's top one rank away in suit, round the corner; never into an
        # empty pile; a foundation's card only with worry_back.
        if isinstance(source, int) or variant["worry_back"]:
            for j, other in enumerate(rest):
                if j != source and other and _next_to(card, other[-1], ranks):
                    yield f"{name}-{j + 1}", (_with(rest, j, other + (card,)), ups, downs, redeals)
    # The special redeal: every pile's bottom card to its top.
    if redeals < variant["redeals"]:
        yield "r", (tuple(pile[1:] + pile[:1] for pile in piles), up, down, redeals + 1)


def settle(position: Position, variant: dict[str, Any], reductions: frozenset[str]) -> Position:
    """No automatic moves: Crescent makes none, and no reduction adds any."""
    return position


def is_won(position: Position, variant: dict[str, Any]) -> bool:
    """Won when every card is home: every pile empty."""
    return not any(position[0])
