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
from typing import Sequence

from solver.cards import card_str, is_red, make_card, rank, suit


@functools.lru_cache(maxsize=None)
def _parents(ranks: int) -> tuple[tuple[int, ...], ...]:
    """Return, by card, its parents (one rank higher, the other colour; none for a King)."""
    return tuple(() if rank(c) >= ranks else tuple(
        p for p in (make_card(rank(c) + 1, t) for t in range(4)) if is_red(p) != is_red(c))
        for c in range(52))


def never_home(columns: Sequence[bytes], hidden: bytes, foundations: bytes,
               ranks: int) -> list[int]:
    """Return the cards the relaxed game can never send home (in card order), or []."""
    parents = _parents(ranks)
    _off, _top = -2, -1
    on = [_off] * 52                       # the card lying on each column card now
    face_down = [False] * 52
    deck = [make_card(r, s) for s in range(4) for r in range(1, ranks + 1)]
    bottoms: list[int] = []
    empty = False
    for column, down in zip(columns, hidden):
        if not column:
            empty = True
            continue
        bottoms.append(column[0])
        for below, above in zip(column, column[1:]):
            on[below] = above
        on[column[-1]] = _top
        for card in column[:down]:
            face_down[card] = True
    home = [False] * 52
    for s in range(4):
        for r in range(1, foundations[s] + 1):
            home[make_card(r, s)] = True
    left = [False] * 52
    entered = [False] * 52

    def top(c: int) -> bool:
        over = on[c]
        if over == _off:
            return entered[c]
        return over == _top or left[over]

    changed = True
    while changed:
        changed = False
        if not empty and any(left[b] for b in bottoms):
            empty = changed = True
        for c in deck:
            placed = (empty and rank(c) == ranks) or any(top(p) for p in parents[c])
            if on[c] == _off:
                if not entered[c] and placed:
                    entered[c] = changed = True
            elif not left[c] and (home[c] or placed and (not face_down[c] or top(c))):
                left[c] = changed = True
            if not home[c] and (rank(c) == 1 or home[c - 1]) and (on[c] == _off or top(c)):
                home[c] = changed = True
    return [c for c in deck if not home[c]]


def never_home_reason(cards: Sequence[int]) -> str:
    """Return the one-line proof shown with a ``lost`` verdict: the lowest card of each
    suit that can never go home (the higher ones of its suit wait for it)."""
    lowest = [c for c in cards if c - 1 not in cards or rank(c) == 1]
    return ("even if every move once possible stayed possible, these cards could never go "
            "home, nor the higher ones of their suits: " + " ".join(card_str(c) for c in lowest))
