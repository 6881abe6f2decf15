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
from typing import Final, Sequence, final

from solver.cards import card_str, is_red, make_card, rank

# Facts, one bit each in ``flags[c]`` (and what a card is now: in a column, face down, a
# column's bottom card).
_COLUMN: Final = 1              # c lies in a column now
_DOWN: Final = 2                # c is face down now
_BOTTOM: Final = 4              # c is a column's bottom card now
_TOP: Final = 8                 # top(c) (rule 1): a column's top card, or entered
_LEFT: Final = 16               # left(c) (rule 3)
_HOME: Final = 32               # home(c) (rule 5)
_PLACED: Final = 64             # a place can take c: a parent has top, or c is a King and empty
# Events to propagate, as kind * 64 + card (``_EMPTY`` carries no card).
_EV_TOP: Final = 0
_EV_LEFT: Final = 64
_EV_HOME: Final = 128
_EV_EMPTY: Final = 192


@final
class Relaxed:
    """The relaxed game of one variant (its number of ranks): tables built once.

    The least fixpoint is found by propagation rather than by sweeping every card until
    nothing changes: each fact is set once, and setting it looks only at the facts whose
    rule it can complete (a card's two children when it gains ``top``, the card under it
    when it gains ``left``, the next card of its suit when it goes home, the Kings when a
    column empties). A rule's conditions only ever become true, so a fact whose rule holds
    is set when its last condition is, and the fixpoint is the same one the rules define.
    """

    ranks: int
    deck: list[int]              # the cards of the variant, in card order
    child1: list[int]            # the two cards that may lie on c (one rank down, the
    child2: list[int]            # other colour), -1 for an Ace
    is_ace: list[bool]
    is_last: list[bool]          # c's rank is the variant's highest (a King)
    kings: list[int]

    def __init__(self, ranks: int) -> None:
        self.ranks = ranks
        self.deck = [make_card(r, s) for s in range(4) for r in range(1, ranks + 1)]
        self.child1, self.child2 = [-1] * 52, [-1] * 52
        for c in self.deck:
            if rank(c) > 1:
                found = [k for k in (make_card(rank(c) - 1, t) for t in range(4))
                         if is_red(k) != is_red(c)]
                self.child1[c], self.child2[c] = found[0], found[1]
        self.is_ace = [rank(c) == 1 for c in range(52)]
        self.is_last = [rank(c) == ranks for c in range(52)]
        self.kings = [make_card(ranks, s) for s in range(4)]

    def home_count(self, columns: tuple[bytes, ...], hidden: bytes, foundations: bytes,
                   flags: list[int]) -> int:
        """Fill `flags` (53 zeros on entry) with the fixpoint; return how many cards it
        sends home."""
        child1, child2, is_ace, is_last = self.child1, self.child2, self.is_ace, self.is_last
        ranks = self.ranks
        below = [-1] * 52                # the card lying under each column card
        stack: list[int] = []
        empty = False
        for i in range(len(columns)):
            column = columns[i]
            n = len(column)
            if not n:
                empty = True
                continue
            down = hidden[i]
            under = column[0]
            flags[under] = _COLUMN | _BOTTOM | (_DOWN if down else 0)
            for j in range(1, n):
                card = column[j]
                flags[card] = _COLUMN | _DOWN if j < down else _COLUMN
                below[card] = under
                under = card
            flags[under] = flags[under] | _TOP
            stack.append(_EV_TOP + under)
        homes = 0
        for s in range(4):
            r = foundations[s]
            homes += r
            for c in range(s * 13, s * 13 + r):
                flags[c] = _HOME
            if r:
                stack.append(_EV_HOME + s * 13 + r - 1)
            elif not flags[s * 13] & _COLUMN:
                flags[s * 13] = _HOME           # an Ace off the tableau goes home
                homes += 1
                stack.append(_EV_HOME + s * 13)
        if empty:
            stack.append(_EV_EMPTY)
        while stack:
            event = stack.pop()
            kind = event & 192
            c = event & 63
            if kind == _EV_TOP:
                f = flags[c]
                if not f & _HOME and (is_ace[c] or flags[c - 1] & _HOME):
                    flags[c] = f = f | _HOME    # rule 5: it has top
                    homes += 1
                    stack.append(_EV_HOME + c)
                if f & _COLUMN and f & _PLACED and not f & _LEFT:
                    flags[c] = f | _LEFT        # rule 3
                    stack.append(_EV_LEFT + c)
                k = child1[c]
                if k < 0:
                    continue
                kids = 2
            elif kind == _EV_LEFT:
                f = flags[c]
                if f & _BOTTOM:
                    if not empty:               # rule 2
                        empty = True
                        stack.append(_EV_EMPTY)
                else:
                    k = below[c]
                    f = flags[k]
                    if not f & _TOP:            # rule 1
                        flags[k] = f | _TOP
                        stack.append(_EV_TOP + k)
                continue
            elif kind == _EV_HOME:
                f = flags[c]
                if f & _COLUMN and not f & _LEFT:
                    flags[c] = f | _LEFT        # rule 3: going home leaves the place
                    stack.append(_EV_LEFT + c)
                if is_last[c]:
                    continue
                k = c + 1
                f = flags[k]
                if not f & _HOME and (f & _TOP or not f & _COLUMN):
                    flags[k] = f | _HOME        # rule 5
                    homes += 1
                    stack.append(_EV_HOME + k)
                continue
            else:                               # a column is or can be empty
                k = self.kings[0]
                kids = 4
            # c gained top (its children may now be placed), or a column can empty (the
            # Kings may be): mark each and apply rules 3 and 4
            while kids:
                kids -= 1
                if kind == _EV_TOP:
                    k = child1[c] if kids else child2[c]
                else:
                    k = self.kings[kids]
                f = flags[k]
                if f & _PLACED:
                    continue
                f |= _PLACED
                if not f & _COLUMN:
                    if not f & _TOP:            # rule 4: entered, then top (rule 1)
                        f |= _TOP
                        stack.append(_EV_TOP + k)
                elif not f & _LEFT and (f & _TOP or not f & _DOWN):
                    f |= _LEFT                  # rule 3
                    stack.append(_EV_LEFT + k)
                flags[k] = f
        return homes

    def lost(self, columns: tuple[bytes, ...], hidden: bytes, foundations: bytes) -> bool:
        """Return whether some card can never go home in the relaxed game."""
        return self.home_count(columns, hidden, foundations, [0] * 53) != 4 * self.ranks

    def never_home(self, columns: tuple[bytes, ...], hidden: bytes,
                   foundations: bytes) -> list[int]:
        """Return the cards the relaxed game can never send home (in card order), or []."""
        flags = [0] * 53
        if self.home_count(columns, hidden, foundations, flags) == 4 * self.ranks:
            return []
        return [c for c in self.deck if not flags[c] & _HOME]


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
