"""A relaxed Klondike in which whatever becomes possible stays possible: a proof of loss.

The relaxed game tracks four kinds of event, each of which, once it has happened, is
assumed to be repeatable whenever wanted (the relaxation):

- ``top(c)``: card c lies on top of a column;
- ``left(c)``: a card now in a column leaves the place it holds now;
- ``entered(c)``: a card now off the tableau (stock, waste or foundation) is put on a
  column;
- ``home(c)``: card c goes to its foundation (true at once for the cards home now);

and ``empty``: some column is empty. They are computed as a least fixpoint of these
rules (``c`` a card, ``p`` one of its parents: one rank higher, the other colour):

1. ``top(c)`` if c is in a column and is its top card now or the card lying on it now
   has ``left``; if c is off the tableau, once ``entered(c)``.
2. ``empty`` if a column is empty now or the bottom card of some column has ``left``.
3. ``left(c)`` if c is face up now or ``top(c)`` (a face-down card turns up only as a
   top card), and c is a King and ``empty``, or ``top(p)`` for a parent p; or if
   ``home(c)`` (going home leaves the place).
4. ``entered(c)`` if c is a King and ``empty``, or ``top(p)`` for a parent p.
5. ``home(c)`` if c is an Ace or ``home`` of the card one rank lower of its suit, and c
   is off the tableau now or ``top(c)``.

A win sends every card home, so a card without ``home`` proves the position lost.

Soundness for our rules (games/klondike.py): take any line of play from the position
and, for each event, the first step at which it happens. By induction on that step,
every event is derived. A card moves only with the cards lying on it, so the card on a
column card p changes only when the card now on it leaves its place: p is a top card
at time t only if it is one now or that card left earlier (rule 1); a card off the
tableau now is a top card only after it was put on a column. A column that is not
empty now empties only when its bottom card leaves (rule 2). A card put on a column
(from a column, the waste or a foundation: the three sources of our rules, foundation
cards coming back included) goes onto a top card that is its parent, or is a King going
to an empty column (rules 3 and 4); one in a column was face up, so it was face up now
or was turned as a top card. A card going home for the first time needs the card below
it of its suit home (so that card went home earlier, or is home now) and, if it comes
from a column, to be that column's top card; from the stock or the waste nothing more
is assumed (rule 5). Every condition of the relaxed rules is therefore met before the
event, and facts are never withdrawn, so the least fixpoint holds every event of every
line of play. Nothing here depends on the number of cards turned at a time or on the
passes, so the proof holds for every variant.

It is stronger than ``games._deadlock.stuck_cards``, which takes every card off the
tableau as a parent available at any time, lets a King leave whether or not a column
can empty, and lets a card go home once its lower cards have left their places rather
than gone home. Bjarnason, Tadepalli and Fern's relaxed Klondike (2007) is of this
kind; this one keeps our foundation cards' way back (rule 4 covers it).
"""
from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Final, Sequence, final

if TYPE_CHECKING:      # compiled, a native 64-bit int; as plain Python, never looked up
    from mypy_extensions import i64

from solver.cards import card_str, make_card, rank



_EVEN_SUITS: Final = 0x1FFF | 0x1FFF << 26       # the bits of suits 0 and 2 (Clubs, Hearts)
_ODD_SUITS: Final = 0x1FFF << 13 | 0x1FFF << 39   # the bits of suits 1 and 3 (Diamonds, Spades)
_EVEN_ACES: Final = 1 | 1 << 26
_ODD_ACES: Final = 1 << 13 | 1 << 39


@final
class Relaxed:
    """The relaxed game of one variant (its number of ranks), on bit sets of cards.

    Every fact of a kind is one bit set, bit c for card c (at most 52 bits: a native
    int when compiled): ``top``, ``left``, ``home``, with ``empty`` a flag. A round
    applies every rule to every card at once, and rounds repeat until one adds nothing:

    - the cards that can be placed (rules 3 and 4) are the children of the ``top`` cards,
      one rank down and of the other colour: the black ranks shifted down one rank into
      the red suits and the red ones into the black suits, plus the Kings once ``empty``;
    - rule 4 adds the placed cards off the tableau to ``top``; rule 5 extends ``home``
      up each suit over the cards off the tableau or with ``top``, as far as they run
      unbroken from the Ace (one addition for all suits); rule 3 gives ``left`` to the
      placed column cards that are face up or have ``top``, and to the home ones;
    - each card new to ``left`` gives ``top`` to the card under it (rule 1), or ``empty``
      when it is a column's bottom card (rule 2).

    Each rule's conditions only ever grow, so the rounds only add facts, and a round
    that adds none leaves every rule satisfied: that is the least fixpoint of the rules
    above, whatever the order (it is a bit set version of the sweep over cards it
    replaced, and gives the same answers; about 0.6 us a position compiled, from 12).
    """

    ranks: int
    deck: list[int]              # the cards of the variant, in card order
    full: i64                    # the deck as a bit set
    aces: i64                    # the Aces as a bit set
    one: i64                     # 1 (see home_bits)
    king_bits: i64               # the Kings (the variant's highest rank) as a bit set
    below: list[int]             # scratch: the card lying under each column card
    last: list[bytes]            # the columns `below` was last written for, by index

    def __init__(self, ranks: int) -> None:
        self.ranks = ranks
        self.deck = [make_card(r, s) for s in range(4) for r in range(1, ranks + 1)]
        self.one = 1
        self.full = sum(1 << c for c in self.deck)
        self.aces = sum(1 << make_card(1, s) for s in range(4))
        self.king_bits = sum(1 << make_card(ranks, s) for s in range(4))
        self.below = [-1] * 52   # written for every column card before it is read
        self.last = []           # the columns of the last call (see home_bits)

    def home_bits(self, columns: tuple[bytes, ...], hidden: bytes, foundations: bytes) -> int:
        """Return the cards the relaxed game sends home, as a bit set.

        The bit sets are ``i64`` (52 bits fit): compiled, every operation on them is one
        machine instruction, with no check for a number grown too big for a small int
        (they never do: the largest value made is below 2 ** 53). As plain Python they
        are ints, with the same values.
        """
        below = self.below
        # `below` holds, for every card of the columns in `last`, the card under it: a
        # column that is the very object of the last call at its index (a child shares
        # its parent's unchanged columns) is not written again. The cards of one
        # position's columns are distinct, so writing the others leaves its entries.
        # After every call `last` is exactly that call's columns, empty ones included.
        last = self.last
        if len(last) != len(columns):
            last = self.last = [b""] * len(columns)
        col: i64 = 0
        down: i64 = 0
        tops: i64 = 0
        bottoms: i64 = 0
        bit: i64 = 0
        # read from the object, not written 1 here: the compiler would put a literal 1,
        # a 32-bit int in C, on the left of the shifts (wrong past bit 31)
        one: i64 = self.one
        empty = False
        for i in range(len(columns)):
            column = columns[i]
            n = len(column)
            if not n:
                empty = True
                last[i] = column
                continue
            d = hidden[i]
            under = column[0]
            bit = one << under
            bottoms |= bit
            col |= bit
            if d:
                down |= bit
            if column is last[i]:
                for j in range(1, n):
                    card = column[j]
                    bit = one << card
                    col |= bit
                    if j < d:
                        down |= bit
                under = column[n - 1]
            else:
                last[i] = column
                for j in range(1, n):
                    card = column[j]
                    bit = one << card
                    col |= bit
                    if j < d:
                        down |= bit
                    below[card] = under
                    under = card
            tops |= one << under
        home: i64 = 0
        for s in range(4):
            home |= ((one << foundations[s]) - 1) << (13 * s)
        full: i64 = self.full
        kings: i64 = self.king_bits
        off: i64 = full & ~col
        face_up: i64 = col & ~down
        up: i64 = tops
        left: i64 = 0
        while True:
            # black Clubs (bits 0-12) and Spades (39-51), red Diamonds and Hearts
            black: i64 = ((up | (up >> 39)) & 0x1FFF) >> 1
            red: i64 = (((up >> 13) | (up >> 26)) & 0x1FFF) >> 1
            placed: i64 = (black << 13) | (black << 26) | red | (red << 39)
            if empty:
                placed |= kings
            more: i64 = up | (off & placed)
            ready: i64 = off | more
            # Rule 5 up each suit at once: home is a run from the Ace in each suit's 13
            # bits, and grows to the longest run from the Ace of cards home or ready, the
            # trailing ones of each suit's bits: x & ~(x + 1) per suit. Suits 0 and 2 are
            # done apart from 1 and 3, so the carry out of a suit whose bits are all ones
            # falls on a bit that is masked off.
            grown: i64 = home | ready
            even: i64 = grown & _EVEN_SUITS
            odd: i64 = grown & _ODD_SUITS
            home = (even & ~(even + _EVEN_ACES)) | (odd & ~(odd + _ODD_ACES))
            if home == full:                # every card goes home: nothing more to learn
                return home
            new: i64 = col & ((placed & (face_up | more)) | home) & ~left
            if new:
                left |= new
                while new:
                    low: i64 = new & -new
                    new ^= low
                    if low & bottoms:
                        empty = True
                    else:
                        # the card under it is now a top card; if this round's facts
                        # already let it leave (placed or home) it leaves now rather
                        # than a round later: the same fixpoint in fewer rounds
                        uncovered: i64 = one << below[int(low).bit_length() - 1]
                        more |= uncovered
                        if (placed | home) & uncovered & ~left:
                            left |= uncovered
                            new |= uncovered
            elif more == up:
                return home
            up = more

    def lost(self, columns: tuple[bytes, ...], hidden: bytes, foundations: bytes) -> bool:
        """Return whether some card can never go home in the relaxed game."""
        return self.home_bits(columns, hidden, foundations) != self.full

    def never_home(self, columns: tuple[bytes, ...], hidden: bytes,
                   foundations: bytes) -> list[int]:
        """Return the cards the relaxed game can never send home (in card order), or []."""
        home = self.home_bits(columns, hidden, foundations)
        if home == self.full:
            return []
        return [c for c in self.deck if not home >> c & 1]


@functools.lru_cache(maxsize=None)
def relaxed(ranks: int) -> Relaxed:
    """Return the relaxed game's tables for a variant, built once and shared."""
    return Relaxed(ranks)


def never_home(columns: Sequence[bytes], hidden: bytes, foundations: bytes,
               ranks: int) -> list[int]:
    """Return the cards the relaxed game can never send home (in card order), or []."""
    return relaxed(ranks).never_home(tuple(columns), hidden, foundations)


def never_home_reason(cards: Sequence[int]) -> str:
    """Return the one-line proof shown with a ``lost`` verdict: the lowest card of each
    suit that can never go home (the higher ones of its suit wait for it)."""
    lowest = [c for c in cards if c - 1 not in cards or rank(c) == 1]
    return ("even if every move once possible stayed possible, these cards could never go "
            "home, nor the higher ones of their suits: " + " ".join(card_str(c) for c in lowest))
