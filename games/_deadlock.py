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

One implementation serves both games, written to be compiled by mypyc since Yukon runs it
per position: a variant's tables (``Fixpoint``), positions laid out by card in lists, and
the cards shown to leave kept as a bit set too, to compare with a card's lower cards at once.
Yukon lays a position out once for the fixpoint and its move generator (``Fixpoint.lay_out``).
"""
from __future__ import annotations

import functools
from typing import Final, Sequence, final

from solver.cards import card_str

OFF: Final = -2                  # on[c]: c is off the tableau (home, talon)
TOP: Final = -1                  # on[c]: c is a column's top card


@final
class Fixpoint:
    """The least fixpoint of the cards shown to leave, for one variant's tables."""

    any_to_empty: bool           # an empty column takes any card (else only a King)
    parent_a: list[int]          # the two cards a card may lie on (one rank up, other
    parent_b: list[int]          # colour), -1 for none
    is_king: list[bool]
    lower: list[int]             # bit set of the lower cards of the same suit

    def __init__(self, ranks: int, any_to_empty: bool) -> None:
        self.any_to_empty = any_to_empty
        self.parent_a = [-1] * 52
        self.parent_b = [-1] * 52
        for c in range(52):
            r = c % 13 + 1
            if r >= ranks:
                continue
            parents = [s * 13 + r for s in range(4) if (13 <= s * 13 + r < 39) != (13 <= c < 39)]
            self.parent_a[c], self.parent_b[c] = parents[0], parents[1]
        self.is_king = [c % 13 + 1 == ranks for c in range(52)]
        self.lower = [(1 << c) - (1 << (c - c % 13)) for c in range(52)]

    def stuck(self, columns: tuple[bytes, ...], hidden: bytes) -> list[int]:
        """Return the tableau cards that can never leave their places (bottom first by
        column)."""
        on = [OFF] * 52
        where = [-1] * 52
        face_down = [False] * 52
        pending: list[int] = []
        self.lay_out(columns, hidden, on, where, face_down, pending)
        left = self.settle(on, face_down, pending)
        if not left:
            return []
        found = [False] * 52
        for card in left:
            found[card] = True
        return [card for column in columns for card in column if found[card]]

    def lay_out(self, columns: tuple[bytes, ...], hidden: bytes, on: list[int],
                where: list[int], face_down: list[bool], pending: list[int]) -> None:
        """Fill in, for each card of the columns, the card lying on it (``on``, or TOP),
        its place (``where``: column * 64 + height) and whether it is face down; list
        the cards in ``pending``, each column top first (one pass usually settles all).
        Cards in no column keep OFF and -1."""
        for i in range(len(columns)):
            column = columns[i]
            n = len(column)
            if n:
                base = i << 6
                down = hidden[i]
                below = column[n - 1]
                on[below] = TOP
                where[below] = base | (n - 1)
                pending.append(below)
                for j in range(n - 2, -1, -1):
                    card = column[j]
                    on[card] = below
                    where[card] = base | j
                    pending.append(card)
                    if j < down:
                        face_down[card] = True
                    below = card

    def settle(self, on: list[int], face_down: list[bool], pending: list[int]) -> list[int]:
        """Return the cards of `pending` never shown to leave (the fixpoint's complement).

        The cards shown to leave are kept twice: by card (``left``) and as a bit set
        (``gone``, bit c for card c), to compare with a card's lower cards at once.
        """
        parent_a, parent_b, is_king, lower = self.parent_a, self.parent_b, self.is_king, self.lower
        any_to_empty = self.any_to_empty
        tableau = 0
        for card in pending:
            tableau |= 1 << card
        left = [False] * 52
        gone = 0
        while pending:
            rest: list[int] = []
            for card in pending:
                over = on[card]
                top = over == TOP or left[over]
                if top or not face_down[card]:
                    if any_to_empty or is_king[card]:
                        left[card] = True
                        gone |= 1 << card
                        continue
                    parent = parent_a[card]         # a parent that is or becomes a top card
                    if parent >= 0:
                        over = on[parent]
                        if over < 0 or left[over]:
                            left[card] = True
                            gone |= 1 << card
                            continue
                        over = on[parent_b[card]]
                        if over < 0 or left[over]:
                            left[card] = True
                            gone |= 1 << card
                            continue
                if top:                             # home, once the lower cards have left
                    waiting = lower[card] & tableau
                    if waiting & gone == waiting:
                        left[card] = True
                        gone |= 1 << card
                        continue
                rest.append(card)
            if len(rest) == len(pending):
                return rest
            pending = rest
        return pending


@functools.lru_cache(maxsize=None)
def fixpoint(ranks: int, any_to_empty: bool = False) -> Fixpoint:
    """Return the fixpoint's tables for a variant, built once and shared."""
    return Fixpoint(ranks, any_to_empty)


def stuck_cards(columns: Sequence[bytes], hidden: bytes, ranks: int,
                any_to_empty: bool = False) -> list[int]:
    """Return the tableau cards that can never leave their places (bottom first by column)."""
    return fixpoint(ranks, any_to_empty).stuck(tuple(columns), hidden)


def stuck_reason(stuck: Sequence[int]) -> str:
    """Return the one-line proof shown with a ``lost`` verdict."""
    return ("these cards can never leave their columns (each waits for another of them): "
            + " ".join(card_str(c) for c in stuck))
