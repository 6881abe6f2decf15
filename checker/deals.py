"""PySolFC's numbered deals, and Microsoft FreeCell's, written again for the checker (the
games' modules use them).

PySolFC shuffles a fresh deck (or two) and deals from the end of the shuffled list. Deals
1 to 32000 use Microsoft's generator on a deck ordered as Microsoft FreeCell's (one deck:
Ace of clubs, diamonds, hearts, spades, then the twos...; two decks: each deck clubs,
spades, hearts, diamonds, Ace to King); above 32000, Python's Mersenne Twister seeded with
the number, on decks ordered clubs, spades, hearts, diamonds, Ace to King. Either way, for
n from the last index down to 1, card n is swapped with card j: Microsoft's j is its next
number (``microsoft_random``) modulo n + 1; the Twister's is int(random() * (n + 1)).
Microsoft FreeCell's own deals use its generator for every number (``microsoft=True``).
A game PySolFC does not number, and a small twin, is dealt by the project's own seeded
shuffle (``shuffled``).
"""
from __future__ import annotations

import random
from typing import Iterator, TypeVar

RANKS = "A23456789TJQK"
LAST = 10 ** 20                   # PySolFC's numbers run below this
Card = TypeVar("Card")


def microsoft_random(number: int) -> Iterator[int]:
    """Microsoft's C library rand(), seeded with the deal number, as Microsoft FreeCell uses
    it (bits 16-30 of state = state * 214013 + 2531011); Freecell Pro's extension for the
    numbers 2**31 to 2**33 - 1 (PySolFC's LCRandom31). Only bits 16-31 of the state are
    used, so it is kept modulo 2**32."""
    state = number if number < 1 << 32 else number - (1 << 32)
    while True:
        state = (state * 214013 + 2531011) % (1 << 32)
        if number < 1 << 31:
            yield (state >> 16) & 0x7FFF
        elif number < 1 << 32:
            yield ((state >> 16) & 0x7FFF) | 0x8000
        else:
            yield ((state >> 16) & 0xFFFF) + 1


def pysol_order(number: int, decks: int = 1, microsoft: bool = False) -> list[str]:
    """Return PySolFC's deal `number` (with `microsoft`, Microsoft FreeCell's: its generator
    for every number) as card texts (``AS``, ``TD``), first dealt first."""
    if not 1 <= number < LAST:
        raise ValueError(f"PySolFC's deals are numbered 1 to 10**20 - 1, not {number}")
    mersenne = number > 32000 and not microsoft
    if not mersenne and decks == 1:
        cards = [r + s for r in RANKS for s in "CDHS"]
    else:
        cards = [r + s for _ in range(decks) for s in "CSHD" for r in RANKS]
    twister, values = random.Random(number), microsoft_random(number)
    for n in range(len(cards) - 1, 0, -1):
        j = int(twister.random() * (n + 1)) if mersenne else next(values) % (n + 1)
        cards[n], cards[j] = cards[j], cards[n]
    cards.reverse()
    return cards


def shuffled(cards: list[Card], number: int) -> list[Card]:
    """The project's numbered deal `number` of `cards` (in their order): a copy shuffled by
    ``random.Random(number).shuffle``; the numbers start at 1."""
    if number < 1:
        raise ValueError(f"deal numbers start at 1, got {number}")
    cards = list(cards)
    random.Random(number).shuffle(cards)
    return cards
