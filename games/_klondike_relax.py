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
from typing import Final, Sequence

from solver.cards import card_str, is_red, make_card, rank, suit


_OFF: Final = -2                # on[c]: c is off the tableau
_TOP: Final = -1                # on[c]: c is a column's top card


@functools.lru_cache(maxsize=None)
def _tables(ranks: int) -> tuple[list[int], list[int], list[int], list[int]]:
    """Return the cards of the game, and by card its two parents (-1 for a King) and
    its rank."""
    deck = [make_card(r, s) for s in range(4) for r in range(1, ranks + 1)]
    parent1, parent2 = [-1] * 52, [-1] * 52
    ranks_of = [rank(c) for c in range(52)]
    for c in deck:
        if rank(c) < ranks:
            found = [p for p in (make_card(rank(c) + 1, t) for t in range(4))
                     if is_red(p) != is_red(c)]
            parent1[c], parent2[c] = found[0], found[1]
    return deck, parent1, parent2, ranks_of


def never_home(columns: Sequence[bytes], hidden: bytes, foundations: bytes,
               ranks: int) -> list[int]:
    """Return the cards the relaxed game can never send home (in card order), or []."""
    deck, parent1, parent2, rank_of = _tables(ranks)
    on = [_OFF] * 53                     # the card lying on each column card now; on[52]
    face_down = [False] * 52             # stays _OFF for "no parent"
    bottoms: list[int] = []
    empty = False
    for i in range(len(columns)):
        column = columns[i]
        n = len(column)
        if not n:
            empty = True
            continue
        bottoms.append(column[0])
        for j in range(n - 1):
            on[column[j]] = column[j + 1]
        on[column[n - 1]] = _TOP
        for j in range(hidden[i]):
            face_down[column[j]] = True
    home = [False] * 52
    for s in range(4):
        for r in range(foundations[s]):
            home[s * 13 + r] = True
    # up[c]: c is or can be a column's top card (rule 1), kept for cards off the tableau
    # too (entered); up[52] stays False for "no parent"
    up = [False] * 53
    left = [False] * 52
    for c in deck:
        if on[c] == _TOP:
            up[c] = True
    changed = True
    while changed:
        changed = False
        if not empty:
            for b in bottoms:
                if left[b]:
                    empty = changed = True
                    break
        for c in deck:
            over = on[c]
            if not up[c] and over >= 0 and left[over]:
                up[c] = changed = True
            p1 = parent1[c]
            placed = (empty and rank_of[c] == ranks) or p1 >= 0 and (up[p1] or up[parent2[c]])
            if over == _OFF:
                if placed and not up[c]:            # entered
                    up[c] = changed = True
            elif not left[c] and (home[c] or placed and (up[c] or not face_down[c])):
                left[c] = changed = True
            if not home[c] and (rank_of[c] == 1 or home[c - 1]) and (over == _OFF or up[c]):
                home[c] = changed = True
    return [c for c in deck if not home[c]]


def never_home_reason(cards: Sequence[int]) -> str:
    """Return the one-line proof shown with a ``lost`` verdict: the lowest card of each
    suit that can never go home (the higher ones of its suit wait for it)."""
    lowest = [c for c in cards if c - 1 not in cards or rank(c) == 1]
    return ("even if every move once possible stayed possible, these cards could never go "
            "home, nor the higher ones of their suits: " + " ".join(card_str(c) for c in lowest))
