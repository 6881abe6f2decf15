"""PySolFC's numbered deals, written again for the checker (the games' modules use them).

PySolFC shuffles a fresh deck (or two) and deals from the end of the shuffled list. Deals
1 to 32000 use Microsoft's generator on a deck ordered as Microsoft FreeCell's (one deck:
Ace of clubs, diamonds, hearts, spades, then the twos...; two decks: each deck clubs,
spades, hearts, diamonds, Ace to King); above 32000, Python's Mersenne Twister seeded with
the number, on decks ordered clubs, spades, hearts, diamonds, Ace to King. Either way, for
n from the last index down to 1, card n is swapped with card j: Microsoft's j is bits 16-30
of seed = seed * 214013 + 2531011 (33 bits kept), modulo n + 1; the Twister's is
int(random() * (n + 1)).
"""
from __future__ import annotations

import random

RANKS = "A23456789TJQK"
LAST = 10 ** 20                   # PySolFC's numbers run below this


def pysol_order(number: int, decks: int = 1) -> list[str]:
    """Return PySolFC's deal `number` as card texts (``AS``, ``TD``), first dealt first."""
    if not 1 <= number < LAST:
        raise ValueError(f"PySolFC's deals are numbered 1 to 10**20 - 1, not {number}")
    if number <= 32000 and decks == 1:
        cards = [r + s for r in RANKS for s in "CDHS"]
    else:
        cards = [r + s for _ in range(decks) for s in "CSHD" for r in RANKS]
    twister = random.Random(number) if number > 32000 else None
    seed = number
    for n in range(len(cards) - 1, 0, -1):
        if twister is None:
            seed = (seed * 214013 + 2531011) & 0x1FFFFFFFF
            j = ((seed >> 16) & 0x7FFF) % (n + 1)
        else:
            j = int(twister.random() * (n + 1))
        cards[n], cards[j] = cards[j], cards[n]
    cards.reverse()
    return cards
