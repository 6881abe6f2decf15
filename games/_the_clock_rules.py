"""The Clock's positions, move, play and key for one variant.

Kept apart from ``the_clock.py`` (rules text, text format, notation, the verifier's rule
check and Knuth's characterisation) because this is what every Clock search runs per
position, written to be compiled by mypyc: a ``Rules`` object built once per variant
holds each distinct ``Move``, positions stay tuples of ``bytes``, and a State is made
without the named tuple's Python-level ``__new__``. A deal's play is short (at most 52
turns), so a search spends much of its time outside the game too.
"""
from __future__ import annotations

from typing import Final, NamedTuple, final

from solver.cards import BYTE

OVER: Final = -1                 # next_pile once the play has stopped
_SEPARATOR: Final = b"\xff"      # between the piles of a key (never a card)


class State(NamedTuple):
    piles: tuple[bytes, ...]     # face-down cards of pile i (rank i+1), bottom first, top last
    face_up: tuple[bytes, ...]   # face-up cards under pile i, all of rank i+1, in turning order
    next_pile: int               # the pile whose top card turns next; OVER when play stopped


class Move(NamedTuple):
    pile: int                    # the pile the card is turned from
    card: int                    # the card turned


_STATE: Final = State
_NEW_TUPLE: Final = tuple.__new__     # makes a State without its Python-level __new__


@final
class Rules:
    """The rules of one Clock variant: its moves, built once."""

    made: list[Move]             # made[pile * 52 + card]: each Move once

    def __init__(self, ranks: int) -> None:
        self.made = [Move(pile, card) for pile in range(ranks) for card in range(52)]

    def moves(self, state: State) -> list[Move]:
        """Return the one legal move (turn the top card of the pile due), or none."""
        due = state[2]
        if due == OVER:
            return []
        pile = state[0][due]
        return [self.made[due * 52 + pile[len(pile) - 1]]]

    def play(self, state: State, move: Move) -> State:
        """Return the position after turning the move's card face up under its own pile."""
        piles, face_up, _ = state
        source, card = move
        target = card % 13                      # rank - 1: the card's own pile
        new_piles = list(piles)
        pile = piles[source]
        new_piles[source] = pile[:len(pile) - 1]
        new_up = list(face_up)
        new_up[target] = face_up[target] + BYTE[card]
        due = target if len(new_piles[target]) else OVER
        return _NEW_TUPLE(_STATE, (tuple(new_piles), tuple(new_up), due))

    def is_won(self, state: State) -> bool:
        """Return whether every card is face up."""
        return _face_down(state[0]) == 0

    def key(self, state: State) -> bytes:
        """Return the face-down piles and the next pile, packed."""
        return _SEPARATOR.join(state[0]) + BYTE[state[2] + 1]

    def heuristic(self, state: State) -> int:
        """Return the face-down cards left."""
        return _face_down(state[0])

    def lower_bound(self, state: State) -> int:
        """Return the face-down cards left: each step turns exactly one."""
        return _face_down(state[0])

    def forced(self, state: State) -> list[Move]:
        """Return no forced moves: there is only ever one move anyway."""
        return []


def _face_down(piles: tuple[bytes, ...]) -> int:
    """Return the number of face-down cards in `piles`."""
    left = 0
    for pile in piles:
        left += len(pile)
    return left
