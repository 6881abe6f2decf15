"""Cards that can never leave their columns: a static proof that a position is lost.

For games that build down in alternate colours and move a face-up card together with
what lies on it (Klondike, where the face-up cards always form such a run, and Yukon),
with Kings alone to empty columns (or any card, with ``any_to_empty``). Such a game is
won only when every tableau card has left its place, and a card leaves its place only

- home, when it is its column's top card and the lower cards of its suit are home;
- onto a parent (one rank higher, other colour) that is some column's top card, when it
  is face up (face-down cards turn up only when they become a top card);
- to an empty column, when it is face up and a King.

``stuck_cards`` over-approximates every such event: a card on the foundation or off the
tableau (talon, waste) is assumed to be available whenever wanted, and a card becomes a
column's top card as soon as the card lying on it has left. Start with no card shown to
leave and add every card whose conditions hold, until nothing changes (a least fixpoint).

Soundness: take any line of play and the first time each tableau card leaves the place
it holds now; by induction on time, each such event is added. A card c leaving at time t
was face up (it was dealt so, or it turned when the card lying on it left earlier); if it
went home, the card on it had left before t and so had every lower card of its suit that
was on the tableau (each went home, so left its place, earlier); if it went onto a parent
p, p was then a top card, so p was off the tableau now (assumed available), or a top
card now, or the card lying on p now had left it earlier (cards move with what lies on
them, so p's neighbour changes only when that card leaves). So a card the fixpoint never
adds can never leave, and the position is lost. Every strategy checks the start
position (``dead_end``, asked by ``solver.search.checked``), which decides deals no search
can exhaust in time, such as PySolFC Klondike deal 29, where the QH and the QD each wait
for a black King lying under the other; Yukon also checks every position it expands.
"""
from __future__ import annotations

import functools
from typing import Sequence

from solver.cards import card_str, is_red, make_card, rank, suit


_OFF, _TOP = -2, -1              # on[c]: c is off the tableau, c is a top card


@functools.lru_cache(maxsize=None)
def _tables(ranks: int) -> tuple[list[tuple[int, ...]], list[tuple[int, ...]], list[bool]]:
    """Return, by card: its lower cards of the same suit, its parents, whether a King."""
    lower, parents, kings = [], [], []
    for card in range(52):
        r, s = rank(card), suit(card)
        lower.append(tuple(make_card(q, s) for q in range(1, r)))
        parents.append(() if r >= ranks else tuple(
            p for p in (make_card(r + 1, t) for t in range(4)) if is_red(p) != is_red(card)))
        kings.append(r == ranks)
    return lower, parents, kings


def stuck_cards(columns: Sequence[bytes], hidden: bytes, ranks: int,
                any_to_empty: bool = False) -> list[int]:
    """Return the tableau cards that can never leave their places (bottom first by column)."""
    lower, parents, kings = _tables(ranks)
    on = [_OFF] * 52                    # the card lying on each card
    face_down = [False] * 52
    pending: list[int] = []             # each column top first: one pass usually settles all
    for column, down in zip(columns, hidden):
        if column:
            for below, above in zip(column, column[1:]):
                on[below] = above
            on[column[-1]] = _TOP
            pending.extend(reversed(column))
            for card in column[:down]:
                face_down[card] = True
    left = [False] * 52
    while pending:
        rest = []
        for card in pending:
            over = on[card]
            top = over == _TOP or left[over]
            if top or not face_down[card]:
                if any_to_empty or kings[card]:
                    left[card] = True
                    continue
                for parent in parents[card]:        # a parent that is or becomes a top card
                    over = on[parent]
                    if over < 0 or left[over]:
                        break
                else:
                    parent = -1
                if parent >= 0:
                    left[card] = True
                    continue
            if top:                                 # home, once the lower cards have left
                for low in lower[card]:
                    if on[low] != _OFF and not left[low]:
                        break
                else:
                    left[card] = True
                    continue
            rest.append(card)
        if len(rest) == len(pending):
            break
        pending = rest
    if not pending:
        return []
    stuck = set(pending)
    return [card for column in columns for card in column if card in stuck]


def stuck_reason(stuck: Sequence[int]) -> str:
    """Return the one-line proof shown with a ``lost`` verdict."""
    return ("these cards can never leave their columns (each waits for another of them): "
            + " ".join(card_str(c) for c in stuck))
